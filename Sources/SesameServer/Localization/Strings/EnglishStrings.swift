import SesameProtocol

/// The English string table: page texts and one `error_user_msg` per ``APIErrorCode``.
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
        "signup.body": "Self-service sign-up is coming soon. Until then, ask your administrator to create an account for you.",
        "password_reset.title": "Reset your password",
        "password_reset.body": "Self-service password reset is coming soon. Until then, ask your administrator to reset your password.",
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

    /// End-user wording: what happened and what to do.
    static func userMessage(for code: APIErrorCode) -> String {
        switch code {
        case .invalidCredentials: "The username or password is incorrect. Check them and try again."
        case .csrfFailed: "This sign-in form expired. Go back to the app and try again."
        case .unknownClient, .invalidClient:
            "This app is not registered with the sign-in service. Contact the app's developer."
        case .invalidRedirectURI:
            "This app sent an invalid return address. Contact the app's developer."
        case .loginRequired, .interactionRequired, .consentRequired: "Please sign in again."
        case .invalidGrant, .invalidToken: "Your session has expired. Please sign in again."
        case .accountLocked: "Your account is temporarily locked. Try again later."
        case .rateLimited: "Too many attempts. Wait a moment and try again."
        case .serverError, .temporarilyUnavailable:
            "The sign-in service has a problem. Try again in a few minutes."
        case .accessDenied: "Access was denied."
        default: "The app sent a request the sign-in service could not accept. Try again, or contact the app's developer."
        }
    }
}
