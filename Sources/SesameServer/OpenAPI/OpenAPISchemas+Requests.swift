import Foundation
import SesameProtocol

extension OpenAPISchemas {
    /// The account API bodies (docs/first-party-and-accounts.md), from the ``SesameProtocol`` types.
    static func accountTypes(into catalog: inout Catalog) {
        let profile = ProfileUpdate(
            name: "n", givenName: "n", familyName: "n", middleName: "n", nickname: "n",
            preferredUsername: "n", profile: "n", picture: "n", website: "n", gender: "n",
            birthdate: "n", zoneinfo: "n", locale: "n", phoneNumber: "n", address: fullAddress)
        catalog.add(
            "SignUpRequest",
            SignUpRequest(clientID: "c", email: "e", password: "p", username: "u", profile: profile),
            SignUpRequest(clientID: "c", email: "e", password: "p"),
            "Sign-up: credentials plus optional standard claims. `username` defaults to the email.")
        let signedUp = SignUpResponse(sub: "s", email: "e", emailVerified: false)
        catalog.add("SignUpResponse", signedUp, signedUp, "The new account; a verification code went to `email`.")
        let verification = EmailVerificationRequest(email: "e", code: "123456")
        catalog.add("EmailVerificationRequest", verification, verification, "The emailed sign-up code.")
        catalog.add(
            "EmailVerificationStatus", EmailVerificationStatus(email: "e", emailVerified: true),
            EmailVerificationStatus(emailVerified: true), "The verified address.")
        let reset = PasswordResetRequest(email: "e")
        catalog.add("PasswordResetRequest", reset, reset, "The account's email address.")
        let resetConfirmation = PasswordResetConfirmation(email: "e", code: "123456", newPassword: "p")
        catalog.add(
            "PasswordResetConfirmation", resetConfirmation, resetConfirmation,
            "The emailed reset code and the new password.")
        let change = PasswordChangeRequest(currentPassword: "p", newPassword: "q")
        catalog.add("PasswordChangeRequest", change, change, "The current and the new password.")
        let emailChange = EmailChangeRequest(newEmail: "e")
        catalog.add("EmailChangeRequest", emailChange, emailChange, "The new address; a code goes there.")
        let emailConfirmation = EmailChangeConfirmation(code: "123456")
        catalog.add(
            "EmailChangeConfirmation", emailConfirmation, emailConfirmation, "The code sent to the new address.")
        let deletion = AccountDeletionRequest(password: "p")
        catalog.add("AccountDeletionRequest", deletion, deletion, "The password confirms the deletion.")
        catalog.add(
            "ProfileUpdate", profile, ProfileUpdate(),
            "Partial standard claims: absent or null leaves a claim, \"\" clears it. Not writable: \(ProfileUpdate.readOnlyClaims.sorted().joined(separator: ", ")).")
        let device = Device(deviceID: "d", name: "n", type: "t", createdAt: 1)
        catalog.add("Device", device, Device(deviceID: "d", name: "n", createdAt: 1), "A registered device.")
        catalog.add(
            "DeviceList", DeviceList(devices: [device]),
            DeviceList(devices: [Device(deviceID: "d", name: "n", createdAt: 1)]), "The user's devices.")
        let identity = LinkedIdentity(provider: "p", subject: "s", email: "e", linkedAt: 1)
        catalog.add(
            "LinkedIdentityList", LinkedIdentityList(identities: [identity]),
            LinkedIdentityList(identities: [LinkedIdentity(provider: "p", subject: "s", linkedAt: 1)]),
            "Provider identities linked to the account.")
        let passkey = Passkey(
            id: "i", name: "n", createdAt: 1, lastUsedAt: 1, backupEligible: true, backedUp: true, keyKind: "swk",
            locked: false)
        let minimalPasskey = Passkey(
            id: "i", name: "n", createdAt: 1, lastUsedAt: nil, backupEligible: false, backedUp: false, keyKind: "hwk")
        catalog.add("Passkey", passkey, minimalPasskey, "A registered passkey; `key_kind` is its RFC 8176 amr value (hwk or swk); `locked`: too many wrong signatures in a row locked it (remove it and add it again).")
        catalog.add("PasskeyList", PasskeyList(passkeys: [passkey]), PasskeyList(passkeys: []), "The user's passkeys, oldest first.")
        let attestation = RegistrationResponseJSON(
            id: "i", rawId: "i",
            response: .init(clientDataJSON: "c", attestationObject: "a", transports: ["internal"]), authenticatorAttachment: "platform")
        let bareAttestation = RegistrationResponseJSON(
            id: "i", rawId: "i", response: .init(clientDataJSON: "c", attestationObject: "a", transports: nil))
        catalog.add(
            "PasskeyRegistration", PasskeyRegistration(credential: attestation, name: "n"),
            PasskeyRegistration(credential: bareAttestation, name: nil),
            "WebAuthn §5.1.8 RegistrationResponseJSON (PublicKeyCredential.toJSON()) and an optional name (≤ 64).")
        catalog.add("PasskeyRenameRequest", PasskeyRenameRequest(name: "n"), PasskeyRenameRequest(name: "n"), "The new name (≤ 64 characters).")
        let creation = CredentialCreationOptionsJSON(
            rp: RelyingPartyEntity(id: "r", name: "n"), user: UserEntityJSON(id: "u", name: "n", displayName: "d"),
            challenge: "c", pubKeyCredParams: [CredentialParameters(alg: -7)], timeout: 300_000,
            excludeCredentials: [CredentialDescriptorJSON(id: "i", transports: ["internal"])],
            authenticatorSelection: AuthenticatorSelection(residentKey: "required", requireResidentKey: true, userVerification: "preferred"),
            attestation: "none")
        catalog.add(
            "CredentialCreationOptions", creation, creation,
            "WebAuthn §5.4 PublicKeyCredentialCreationOptionsJSON: hand it to PublicKeyCredential.parseCreationOptionsFromJSON.")
        catalog.add(
            "DeviceRegistration", DeviceRegistration(deviceID: "d", name: "n", type: "t"),
            DeviceRegistration(deviceID: "d", name: "n"),
            "Registers a device, or renames the one with this `device_id`.")
        let policy = PINPolicy()
        catalog.add("PINPolicy", policy, policy, "The rules a new device PIN must follow, and the wrong PINs allowed in a row.")
        let pinRegistration = PINRegistration(
            id: "i", label: "l", clientID: "c", createdAt: 1, lastUsedAt: 1, failures: 0, policy: policy)
        catalog.add(
            "PINRegistration", pinRegistration,
            PINRegistration(id: "i", label: nil, clientID: "c", createdAt: 1, lastUsedAt: nil, failures: 0, policy: policy),
            "A PIN device.")
        catalog.add(
            "PINRegistrationList", PINRegistrationList(registrations: [pinRegistration]),
            PINRegistrationList(registrations: []), "The user's PIN devices.")
        catalog.add(
            "PINRegistrationRequest", PINRegistrationRequest(publicKey: "k", label: "l"), PINRegistrationRequest(publicKey: "k"),
            "The device's Ed25519 public key (base64url, 32 bytes) and a label.")
        let nonceRequest = PINNonceRequest(clientID: "c", registrationID: "r")
        catalog.add("PINNonceRequest", nonceRequest, nonceRequest, "The registration to unlock.")
        let nonce = PINNonce(nonce: "n", expiresIn: 60)
        catalog.add("PINNonce", nonce, nonce, "A single-use nonce and its lifetime in seconds.")
    }

    /// `application/x-www-form-urlencoded` requests (RFC 6749 §3.2, RFC 7009 §2.1, RFC 7662
    /// §2.1, draft-ietf-oauth-first-party-apps §5.1).
    static func formRequests(into catalog: inout Catalog) {
        typealias Schema = OpenAPI.Schema
        let clientID = Schema.string("The client identifier (public clients; others may use HTTP Basic).")
        let clientSecret = Schema.string("client_secret_post authentication (prefer HTTP Basic).")
        catalog.schemas["TokenRequest"] = .object(
            [
                "grant_type": .string(
                    "RFC 6749 grant; there is no password grant.",
                    values: [
                        GrantType.authorizationCode.rawValue, GrantType.refreshToken.rawValue,
                        GrantType.clientCredentials.rawValue, GrantType.tokenExchange.rawValue, PINUnlock.grantType,
                        GrantType.deviceCode.rawValue,
                    ]),
                "device_code": .string(
                    "Device grant (RFC 8628 §3.4): the device_code from /device_authorization; poll at its interval."),
                "subject_token": .string(
                    "Token exchange (RFC 8693 §2.1): the sibling app's ID token (Native SSO) or another provider's (federation)."),
                "subject_issuer": .string("Federation: the registered provider's name or issuer."),
                "subject_token_type": .string(
                    "Token exchange: the subject token's type.", values: [TokenExchange.TokenType.idToken]),
                "actor_token": .string("Token exchange: the device secret (Native SSO 1.0 §4.1)."),
                "actor_token_type": .string(
                    "Token exchange: the actor token's type.", values: [TokenExchange.TokenType.deviceSecret]),
                "audience": .string("Token exchange: this issuer's identifier."),
                "resource": .string("Token exchange: optional; this issuer."),
                "requested_token_type": .string(
                    "Token exchange: optional; an access token.", values: [TokenExchange.TokenType.accessToken]),
                "device_secret": .string(
                    "authorization_code and refresh_token with device_sso: the device secret the app has (Native SSO 1.0 §3.3)."),
                "client_assertion_type": .string(
                    "private_key_jwt (RFC 7523 §2.2).", values: ["urn:ietf:params:oauth:client-assertion-type:jwt-bearer"]),
                "client_assertion": .string("private_key_jwt: the signed JWT (iss = sub = client id, aud, exp, jti)."),
                "registration_id": .string("PIN grant: the registration."),
                "nonce": .string(
                    "PIN grant: the nonce from /api/pin/nonce. Federation: the nonce the app gave the provider (Apple: its SHA-256 is in the token)."),
                "signature": .string("PIN grant: base64url Ed25519 signature of sesame-pin-unlock:<registration_id>:<nonce>."),
                "code": .string("authorization_code: the code."),
                "redirect_uri": .string("authorization_code: as in the authorization request (absent for codes from /authorize-challenge)."),
                "code_verifier": .string("authorization_code: the RFC 7636 PKCE verifier (S256)."),
                "refresh_token": .string("refresh_token: the token; it is rotated."),
                "scope": .string("Space-separated scopes (refresh_token: a subset; client_credentials)."),
                "client_id": clientID, "client_secret": clientSecret,
            ], required: ["grant_type"], description: "RFC 6749 §4.1.3, §6, §4.4 and RFC 8693 §2.1 token request.")
        let hint = Schema.string(
            "A hint of the token's type; device_secret ends the Native SSO device session (sign out everywhere).",
            values: ["access_token", "refresh_token", NativeSSO.deviceSecretHint])
        catalog.schemas["RevocationRequest"] = .object(
            ["token": .string("The token to revoke."), "token_type_hint": hint, "client_id": clientID,
             "client_secret": clientSecret],
            required: ["token"], description: "RFC 7009 §2.1 revocation request.")
        catalog.schemas["PushedAuthorizationRequest"] = .object(
            [
                "client_id": clientID, "client_secret": clientSecret,
                "response_type": .string("Only code.", values: ["code"]),
                "redirect_uri": .string("A registered redirect URI, matched exactly."),
                "scope": .string("Space-separated scopes."),
                "state": .string("Returned with the code."), "nonce": .string("Put in the ID token."),
                "code_challenge": .string("RFC 7636 S256 challenge."),
                "code_challenge_method": .string("Only S256.", values: [PKCE.method]),
            ],
            required: ["response_type", "redirect_uri", "code_challenge", "code_challenge_method"],
            description:
                "RFC 9126 §2.1 pushed authorization request: any parameter /authorize accepts except request_uri, with client authentication as at /token.")
        catalog.schemas["DeviceAuthorizationRequest"] = .object(
            [
                "client_id": clientID, "client_secret": clientSecret,
                "scope": .string("Space-separated scopes the client may ask for."),
                "device_name": .string(
                    "Sesame's extension: the device's own name (at most 64 printable characters), shown to the approving person."),
            ],
            required: ["scope"], description: "RFC 8628 §3.1 device authorization request.")
        catalog.schemas["IntrospectionRequest"] = .object(
            ["token": .string("The token to inspect."), "token_type_hint": hint, "client_secret": clientSecret,
             "client_id": clientID],
            required: ["token"], description: "RFC 7662 §2.1 introspection request (confidential clients).")
        typealias Parameter = AuthorizationChallengeParameter
        catalog.schemas["AuthorizationChallengeRequest"] = .object(
            [
                Parameter.clientID: clientID,
                Parameter.scope: .string("Space-separated scopes (start)."),
                Parameter.codeChallenge: .string("RFC 7636 S256 challenge (start)."),
                Parameter.codeChallengeMethod: .string("Only S256.", values: [PKCE.method]),
                Parameter.username: .string("Username or email (start)."),
                Parameter.password: .string("Password (start)."),
                Parameter.acrValues: .string(
                    "Requested ACR; urn:sesame:acr:mfa with a Bearer token asks for step-up.",
                    values: AuthenticationContextClass.all),
                Parameter.maxAge: .string("`0` re-authenticates: a ≤ 5-minute access token, no refresh token."),
                Parameter.uiLocales: .string("Preferred languages for error_user_msg and messages."),
                Parameter.authSession: .string("Continues an insufficient_authorization answer."),
                Parameter.mfaMethod: .string(
                    "The second factor to use; email and sms send a code.",
                    values: MFAMethod.allCases.map(\.rawValue)),
                Parameter.mfaCode: .string("The one-time code the user typed."),
                Parameter.challengeType: .string(
                    "`passkey` starts a passkey sign-in (with the client, PKCE and scope; optional username): the answer carries passkey_options.",
                    values: [Parameter.passkeyChallenge]),
                Parameter.passkeyAssertion: .string(
                    "The passkey's answer to passkey_options, WebAuthn §5.1.8 AuthenticationResponseJSON as JSON, with auth_session."),
            ], required: [Parameter.clientID],
            description: "draft-ietf-oauth-first-party-apps §5.1: start (credentials + PKCE), choose a method (auth_session + mfa_method) or verify (auth_session + mfa_code).")
    }
}
