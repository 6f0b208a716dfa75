import SesameProtocol

/// The English string table: page texts, email/SMS messages, MFA texts, field
/// errors and one `error_user_msg` per ``APIErrorCode``. It defines the key set: every table in
/// ``StringTables/all`` has exactly these keys and the same placeholders (`%@`, `{code}`, …).
public enum EnglishStrings {
    public static let table: [String: String] = pages.merging(errors) { page, _ in page }

    static let pages: [String: String] = [
        "login.title": "Sign in",
        "login.heading": "Sign in to continue to %@",
        "login.username": "Username or email",
        "login.password": "Password",
        "login.submit": "Sign in",
        "login.create_account": "Create an account",
        "login.forgot_password": "Forgot your password?",
        "login.failed": "The username or password is incorrect. Check them and try again.",
        "error.title": "Something went wrong",
        "error.help": "Go back to the app and start signing in again. If this keeps happening, contact support and quote the reference below.",
        "error.reference": "Reference",
        "signed_out.title": "You are signed out",
        "signed_out.body": "You have been signed out. You can close this window.",
        "signup.title": "Create an account",
        "password_reset.title": "Reset your password",
        "common.back_to_sign_in": "Back to sign in",
        "message.email_verification.subject": "Confirm your email address",
        "message.email_verification.body": "Your verification code is {code}. It expires soon. If you did not create an account, ignore this message.",
        "message.password_reset.subject": "Reset your password",
        "message.password_reset.body": "Your password reset code is {code}. It expires soon. If you did not ask to reset your password, ignore this message.",
        "message.mfa_code.subject": "Your sign-in code",
        "message.mfa_code.body": "Your sign-in code is {code}. It expires soon. Never share it with anyone.",
        "message.mfa_code.sms": "Your sign-in code is {code}. Never share it.",
        "message.email_change.subject": "Confirm your new email address",
        "message.email_change.body": "Your code to confirm this email address is {code}. If you did not ask for this change, ignore this message.",
        "mfa.title": "Verify it's you",
        "mfa.code_label": "Verification code",
        "mfa.submit": "Verify",
        "mfa.method.email": "Email me a code",
        "mfa.method.sms": "Text me a code",
        "mfa.method.totp": "Use my authenticator app",
        "mfa.sent": "We sent a code to {destination}.",
        "mfa.choose": "Choose how to verify",
        "mfa.totp_hint": "Enter the 6-digit code from your authenticator app.",
        "field.required": "This field is required.",
        "field.invalid_format": "This value is not in the expected format.",
        "field.too_short": "Use at least {min} characters.",
        "field.too_long": "Use at most {max} characters.",
        "field.taken": "This value is already in use.",
        "field.not_writable": "This field cannot be changed here.",
        "field.weak_password": "This password is too easy to guess. Avoid common passwords and your email or username.",
    ]

    static let errors: [String: String] = Dictionary(
        uniqueKeysWithValues: APIErrorCode.allCases.map { ($0.messageKey, userMessage(for: $0)) })

    /// End-user wording: what happened and what to do. Every code has its own line so that a
    /// new code cannot ship without an English message; the other locales translate these.
    static func userMessage(for code: APIErrorCode) -> String {
        let unacceptableRequest =
            "The app sent a request the sign-in service could not accept. Try again, or contact the app's developer."
        let notRegistered = "This app is not registered with the sign-in service. Contact the app's developer."
        let sessionExpired = "Your session has expired. Please sign in again."
        let signInAgain = "Please sign in again."
        let serviceProblem = "The sign-in service has a problem. Try again in a few minutes."
        switch code {
        case .invalidRequest, .unsupportedGrantType, .unsupportedResponseType, .pkceRequired,
            .unsupportedTokenType, .methodNotAllowed, .invalidRequestObject, .requestNotSupported,
            .requestURINotSupported, .registrationNotSupported, .requestHeaderFieldsTooLarge:
            return unacceptableRequest
        case .invalidClient, .unknownClient: return notRegistered
        case .invalidGrant, .invalidToken: return sessionExpired
        case .unauthorizedClient:
            return "This app is not allowed to sign you in this way. Contact the app's developer."
        case .invalidScope:
            return "This app asked for access that the sign-in service cannot grant. Contact the app's developer."
        case .accessDenied:
            return "Access was denied. If you think this is a mistake, contact your administrator."
        case .loginRequired, .consentRequired, .interactionRequired: return signInAgain
        case .insufficientScope:
            return "This app does not have permission to do this. Sign in again, or contact the app's developer."
        case .firstPartyClientRequired:
            return "This app is not allowed to manage your account. Make this change in the service's own app or website."
        case .invalidRedirectURI:
            return "This app sent an invalid return address. Contact the app's developer."
        case .csrfFailed: return "This sign-in form expired. Go back to the app and try again."
        case .notFound:
            return "The page or item you asked for does not exist. Go back to the app and try again."
        case .invalidCredentials: return "The username or password is incorrect. Check them and try again."
        case .accountLocked: return "Your account is temporarily locked. Try again later."
        case .insufficientAuthorization:
            return "Additional verification is required. Complete the verification step to continue."
        case .invalidMFACode: return "The verification code is incorrect. Check it and try again."
        case .mfaCodeExpired: return "The verification code has expired. Request a new code and try again."
        case .mfaAttemptsExhausted: return "Too many incorrect codes were entered. Start signing in again."
        case .mfaMethodUnavailable:
            return "This verification method is not available for your account. Choose another method."
        case .invalidAuthSession: return "Your sign-in attempt has expired. Start signing in again."
        case .emailNotVerified:
            return "Your email address has not been verified yet. Verify it with the code we sent you, then try again."
        case .tooManyAttempts:
            return "Too many incorrect password attempts. Wait a few minutes, then try again."
        case .validationFailed:
            return "Some of the information you entered is not valid. Correct the marked fields and try again."
        case .emailTaken:
            return "An account with this email address already exists. Sign in instead, or reset your password."
        case .weakPassword:
            return "This password is too easy to guess. Choose a longer password that is harder to guess."
        case .userNotFound: return "No account was found. Check your details and try again."
        case .invalidVerificationCode:
            return "The code is incorrect or has expired. Check it, or request a new code."
        case .deviceNotFound: return "This device was not found. It may already have been removed."
        case .tooManyDevices: return "You have registered the most devices allowed. Remove a device you no longer use, then try again."
        case .rateLimited: return "Too many attempts. Wait a moment and try again."
        case .proofOfWorkRequired: return "An extra security check is needed. Wait a moment and try again."
        case .serverError, .temporarilyUnavailable: return serviceProblem
        }
    }
}
