import Foundation
import SesameProtocol

extension OpenAPIPaths {
    private typealias Operation = OpenAPI.Operation

    // MARK: Accounts (docs/first-party-and-accounts.md)

    static var accountPaths: [String: OpenAPI.PathItem] {
        let codeErrors = merged(
            badRequest,
            ["400": .error("invalid_verification_code (3004) with remaining_attempts: wrong, expired or used code (5 answers per code, 15 minutes).")])
        let passwordErrors: Responses = [
            "400": .error("weak_password (3002) or validation_failed (3000) with error_details.")
        ]
        let wrongPassword: Responses = ["400": .error("invalid_credentials (2000): wrong password.")]
        let deviceID = OpenAPI.Parameter(
            name: "device_id", in: "path", required: true, description: "The app-chosen device id.",
            schema: .string())
        let provider = OpenAPI.Parameter(
            name: "provider", in: "path", required: true, description: "The provider's registered name.", schema: .string())
        let subject = OpenAPI.Parameter(
            name: "subject", in: "path", required: true, description: "The provider's sub.", schema: .string())
        let passkeyID = OpenAPI.Parameter(
            name: "id", in: "path", required: true, description: "The passkey's credential id (base64url).", schema: .string())
        /// The per-address quota of requests that send account mail (``MailQuota``).
        let mailQuota: [String: OpenAPI.ResponseObject] = [
            "429": .error("rate_limited (4000): too many requests that send email from this address; Retry-After says when to retry.")
        ]
        return [
            "/api/signup": OpenAPI.PathItem(
                post: Operation(
                    "signUp", tag: "Accounts", summary: "Create an account",
                    description: "Sends an email_verification code. The account can sign in before it is verified.",
                    requestBody: .json("SignUpRequest"),
                    responses: merged(
                        ["201": .json("SignUpResponse", "Created, email not yet verified.")],
                        ["409": .error("email_taken (3001) with an error_details entry `taken`.")],
                        ["401": .error("invalid_client (1016): unknown client_id.")],
                        ["503": .error("temporarily_unavailable (5001): the code could not be sent; nothing was created.")],
                        mailQuota, passwordErrors, badRequest),
                    security: noAuthentication)),
            "/api/signup/confirm": OpenAPI.PathItem(
                post: Operation(
                    "confirmSignUp", tag: "Accounts", summary: "Verify the email address with the emailed code",
                    requestBody: .json("EmailVerificationRequest"),
                    responses: merged(["200": .json("EmailVerificationStatus", "Verified.")], codeErrors),
                    security: noAuthentication)),
            "/api/password/reset": OpenAPI.PathItem(
                post: Operation(
                    "requestPasswordReset", tag: "Accounts", summary: "Email a password reset code",
                    description: "202 for any well-formed address, whether or not it has an account; at most 3 codes per address per 15 minutes are sent.",
                    requestBody: .json("PasswordResetRequest"),
                    responses: merged(["202": .json("Empty", "Accepted.")], mailQuota, badRequest),
                    security: noAuthentication)),
            "/api/password/reset/confirm": OpenAPI.PathItem(
                post: Operation(
                    "confirmPasswordReset", tag: "Accounts", summary: "Set a new password with the emailed code",
                    description: "Revokes the user's refresh tokens and browser sessions.",
                    requestBody: .json("PasswordResetConfirmation"),
                    responses: merged(["200": .json("Empty", "Password changed.")], passwordErrors, codeErrors),
                    security: noAuthentication)),
            "/api/password": OpenAPI.PathItem(
                post: Operation(
                    "changePassword", tag: "Accounts", summary: "Change the password",
                    description: "Other sessions and refresh tokens of the user are revoked.",
                    requestBody: .json("PasswordChangeRequest"),
                    responses: merged(
                        ["200": .json("Empty", "Password changed.")], wrongPassword, passwordErrors, badRequest,
                        firstPartyToken, throttledPassword),
                    security: bearer)),
            "/api/email": OpenAPI.PathItem(
                post: Operation(
                    "requestEmailChange", tag: "Accounts", summary: "Send a code to a new email address",
                    requestBody: .json("EmailChangeRequest"),
                    responses: merged(
                        ["202": .json("Empty", "A code went to the new address.")],
                        ["409": .error("email_taken (3001).")], mailQuota, badRequest, firstPartyToken),
                    security: bearer)),
            "/api/email/confirm": OpenAPI.PathItem(
                post: Operation(
                    "confirmEmailChange", tag: "Accounts", summary: "Switch to the new address with its code",
                    requestBody: .json("EmailChangeConfirmation"),
                    responses: merged(
                        ["200": .json("EmailVerificationStatus", "The new, verified address.")],
                        ["409": .error("email_taken (3001): the address was taken meanwhile.")], codeErrors,
                        firstPartyToken),
                    security: bearer)),
            "/api/account": OpenAPI.PathItem(
                delete: Operation(
                    "deleteAccount", tag: "Accounts", summary: "Delete the account",
                    description: "Removes the user, tokens, sessions, devices and MFA data.",
                    requestBody: .json("AccountDeletionRequest"),
                    responses: merged(
                        ["204": .empty("Deleted.")], wrongPassword, badRequest, firstPartyToken, throttledPassword),
                    security: bearer)),
            "/api/profile": OpenAPI.PathItem(
                get: Operation(
                    "getProfile", tag: "Profile", summary: "The user's standard claims",
                    responses: merged(["200": .json("StandardClaims", "Every claim the user has.")], firstPartyToken),
                    security: bearer),
                patch: Operation(
                    "updateProfile", tag: "Profile", summary: "Update standard claims",
                    description: "Read-only members answer 400 with `not_writable` details; formats: birthdate YYYY[-MM-DD], zoneinfo IANA, locale BCP 47, phone_number E.164, profile/picture/website http(s) URLs.",
                    requestBody: .json("ProfileUpdate"),
                    responses: merged(["200": .json("StandardClaims", "The updated claims.")], badRequest, firstPartyToken),
                    security: bearer)),
            "/api/devices": OpenAPI.PathItem(
                get: Operation(
                    "listDevices", tag: "Devices", summary: "The user's devices",
                    responses: merged(["200": .json("DeviceList", "Oldest first.")], firstPartyToken),
                    security: bearer),
                post: Operation(
                    "registerDevice", tag: "Devices", summary: "Register or rename a device",
                    requestBody: .json("DeviceRegistration"),
                    responses: merged(
                        ["201": .json("Device", "The stored device.")],
                        ["409": .error("too_many_devices (3006): the account has the most devices it may register.")],
                        badRequest, firstPartyToken),
                    security: bearer)),
            "/api/devices/{device_id}": OpenAPI.PathItem(
                delete: Operation(
                    "removeDevice", tag: "Devices", summary: "Remove a device", parameters: [deviceID],
                    responses: merged(
                        ["204": .empty("Removed.")], ["404": .error("device_not_found (3005).")], firstPartyToken),
                    security: bearer)),
            "/api/identities": OpenAPI.PathItem(
                get: Operation(
                    "listIdentities", tag: "Identities", summary: "Provider identities linked to the account",
                    description: "Federation (docs/federation.md): signing in with one of these providers' tokens reaches this account.",
                    responses: merged(["200": .json("LinkedIdentityList", "Oldest link first.")], firstPartyToken),
                    security: bearer)),
            "/api/identities/{provider}/{subject}": OpenAPI.PathItem(
                delete: Operation(
                    "unlinkIdentity", tag: "Identities", summary: "Unlink a provider's identity",
                    parameters: [provider, subject],
                    responses: merged(
                        ["204": .empty("Unlinked.")], ["404": .error("not_found (1019): no such link.")],
                        ["409": .error("last_sign_in_method (3007): the account's only way to sign in; set a password first.")],
                        firstPartyToken),
                    security: bearer)),
            "/api/passkeys/options": OpenAPI.PathItem(
                post: Operation(
                    "passkeyCreationOptions", tag: "Passkeys", summary: "WebAuthn options to register a passkey",
                    description: "docs/passkeys.md: a single-use challenge (5 minutes) bound to the token's session; the account's passkeys are excluded.",
                    responses: merged(
                        ["200": .json("CredentialCreationOptions", "Hand to navigator.credentials.create() or the SDK's authenticator.")],
                        ["409": .error("too_many_devices (3006): the account has 20 passkeys.")], firstPartyToken),
                    security: bearer)),
            "/api/passkeys": OpenAPI.PathItem(
                get: Operation(
                    "listPasskeys", tag: "Passkeys", summary: "The user's passkeys",
                    responses: merged(["200": .json("PasskeyList", "Oldest first.")], firstPartyToken),
                    security: bearer),
                post: Operation(
                    "registerPasskey", tag: "Passkeys", summary: "Register a passkey (WebAuthn §7.1)",
                    requestBody: .json("PasskeyRegistration"),
                    responses: merged(
                        ["201": .json("Passkey", "The stored passkey.")],
                        ["400": .error("passkey_invalid (2022, ceremony_step names the §7.1 step) or passkey_challenge_invalid (2020); validation_failed (3000).")],
                        ["409": .error("passkey_already_registered (3008).")], firstPartyToken),
                    security: bearer)),
            "/api/passkeys/{id}": OpenAPI.PathItem(
                patch: Operation(
                    "renamePasskey", tag: "Passkeys", summary: "Rename a passkey", parameters: [passkeyID],
                    requestBody: .json("PasskeyRenameRequest"),
                    responses: merged(
                        ["200": .json("Passkey", "The renamed passkey.")], ["404": .error("not_found (1019).")], badRequest,
                        firstPartyToken),
                    security: bearer),
                delete: Operation(
                    "removePasskey", tag: "Passkeys", summary: "Remove a passkey", parameters: [passkeyID],
                    responses: merged(
                        ["204": .empty("Removed.")], ["404": .error("not_found (1019).")],
                        ["409": .error("last_sign_in_method (3007): the account's only way to sign in; set a password first.")],
                        firstPartyToken),
                    security: bearer)),
            "/api/openapi.json": OpenAPI.PathItem(
                get: Operation(
                    "getOpenAPIDocument", tag: "Operations", summary: "This document (OpenAPI 3.1)",
                    responses: ["200": .empty("The OpenAPI document.")], security: noAuthentication)),
        ]
    }

    // MARK: MFA enrolment (docs/first-party-and-accounts.md)

    static var mfaPaths: [String: OpenAPI.PathItem] {
        let codeErrors = merged(
            ["400": .error("invalid_mfa_code (2003, remaining_attempts), mfa_code_expired (2004) or mfa_attempts_exhausted (2005, the pending enrolment is discarded); validation_failed (3000) for a malformed body.")],
            ["404": .error("not_found (1019): nothing pending to confirm.")], firstPartyToken)
        let alreadySetUp: Responses = ["400": .error("invalid_request (1000): already set up; remove it first.")]
        let enrolled = "The enrolment (`confirmed`, masked `destination`)."
        func removal(_ method: String?) -> Operation {
            let parameter = OpenAPI.Parameter(
                name: "method", in: "path", required: true, description: "The second factor.",
                schema: .string(values: MFAMethod.enrollable.map(\.rawValue)))
            return Operation(
                "removeMFA" + (method.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? "Method"), tag: "MFA",
                summary: "Remove " + (method.map { "the \($0) factor" } ?? "a second factor"),
                parameters: method == nil ? [parameter] : nil,
                responses: merged(
                    ["204": .empty("Removed.")], ["404": .error("not_found (1019): not enrolled.")], firstPartyToken),
                security: bearer)
        }
        var paths: [String: OpenAPI.PathItem] = [
            "/api/mfa": OpenAPI.PathItem(
                get: Operation(
                    "listMFAMethods", tag: "MFA", summary: "The user's second factors",
                    responses: merged(["200": .json("MFAEnrollmentList", "Enrolled and pending methods.")], firstPartyToken),
                    security: bearer)),
            "/api/mfa/totp": OpenAPI.PathItem(
                post: Operation(
                    "startTOTPEnrollment", tag: "MFA", summary: "Create a TOTP secret (RFC 6238)",
                    description: "Pending until confirmed with a code from the authenticator app.",
                    responses: merged(["200": .json("TOTPEnrollment", "Secret and otpauth URI.")], alreadySetUp, firstPartyToken),
                    security: bearer)),
            "/api/mfa/totp/confirm": OpenAPI.PathItem(
                post: Operation(
                    "confirmTOTPEnrollment", tag: "MFA", summary: "Confirm TOTP with a code",
                    requestBody: .json("MFACodeSubmission"),
                    responses: merged(["200": .json("MFAEnrollmentStatus", enrolled)], codeErrors),
                    security: bearer)),
            "/api/mfa/email": OpenAPI.PathItem(
                post: Operation(
                    "enableEmailMFA", tag: "MFA", summary: "Enable email codes to the verified address",
                    responses: merged(
                        ["200": .json("MFAEnrollmentStatus", enrolled)],
                        ["403": .error("email_not_verified (2008).")], firstPartyToken),
                    security: bearer)),
            "/api/mfa/sms": OpenAPI.PathItem(
                post: Operation(
                    "startSMSEnrollment", tag: "MFA", summary: "Send an SMS code to a phone number",
                    requestBody: .json("SMSEnrollmentRequest"),
                    responses: merged(
                        ["202": .json("MFAEnrollmentStatus", "Pending until confirmed with the texted code.")],
                        alreadySetUp, badRequest, firstPartyToken),
                    security: bearer)),
            "/api/mfa/sms/confirm": OpenAPI.PathItem(
                post: Operation(
                    "confirmSMSEnrollment", tag: "MFA", summary: "Confirm SMS with the code",
                    requestBody: .json("MFACodeSubmission"),
                    responses: merged(["200": .json("MFAEnrollmentStatus", enrolled)], codeErrors),
                    security: bearer)),
            "/api/mfa/{method}": OpenAPI.PathItem(delete: removal(nil)),
        ]
        for method in MFAMethod.enrollable {
            paths["/api/mfa/\(method.rawValue)", default: OpenAPI.PathItem()].delete = removal(method.rawValue)
        }
        return paths
    }
}
