import SesameProtocol
import SesameStore

/// Why a second-factor step failed. The authorization challenge endpoint answers it as a
/// ``ProviderFailure`` (error codes 2003–2008); the hosted login page shows the same message
/// key on its MFA step.
package enum MFAFailure: Error, Sendable, Equatable {
    /// 2007: the `auth_session` is unknown, expired, used, or belongs to another client.
    case unknownSession
    /// 2006: the method was not offered for this sign-in, or the user has none.
    case methodUnavailable(String)
    /// 2008: email codes need a verified address.
    case emailNotVerified
    /// The request named no method and none can be assumed.
    case noMethodChosen
    /// The code is not 6 digits (not counted as an attempt).
    case malformedCode
    /// 2003, with the attempts left.
    case wrongCode(remaining: Int)
    /// 2004: ask for a new code.
    case codeExpired
    /// 2005: the auth session is gone; start again. `evaluated`: this answer used the last
    /// attempt and was wrong (the audit log's `attempts_exhausted`, once per session); otherwise
    /// no attempt was left and the code was not compared (`no_attempts_left`).
    case attemptsExhausted(evaluated: Bool)
    /// Too many codes sent for one auth session.
    case tooManyCodes

    package var code: APIErrorCode {
        switch self {
        case .unknownSession: .invalidAuthSession
        case .methodUnavailable: .mfaMethodUnavailable
        case .emailNotVerified: .emailNotVerified
        case .noMethodChosen, .malformedCode: .invalidRequest
        case .wrongCode: .invalidMFACode
        case .codeExpired: .mfaCodeExpired
        case .attemptsExhausted: .mfaAttemptsExhausted
        case .tooManyCodes: .rateLimited
        }
    }

    /// Developer-facing text: what happened and what to do. Never contains a code.
    package var description: String {
        switch self {
        case .unknownSession:
            "The auth_session is unknown, expired or already used; start the sign-in again."
        case .methodUnavailable(let description): description
        case .emailNotVerified:
            "Email codes need a verified email address; verify it first or choose another method."
        case .noMethodChosen: "Choose a method with mfa_method before sending mfa_code."
        case .malformedCode: "mfa_code must be the 6 digits of the code."
        case .wrongCode(let remaining):
            "The code is incorrect; \(remaining) attempt\(remaining == 1 ? "" : "s") left."
        case .codeExpired: "The code has expired; request a new one with mfa_method."
        case .attemptsExhausted: "Too many wrong codes; the auth_session has ended. Start the sign-in again."
        case .tooManyCodes: "Too many codes were sent for this sign-in; start the sign-in again later."
        }
    }

    /// The failure as the API answers it, in the request's `ui_locales`.
    package func providerFailure(uiLocales: String?) -> ProviderFailure {
        var failure = ProviderFailure(code, description, uiLocales: uiLocales)
        switch self {
        case .wrongCode(let remaining): failure.remainingAttempts = remaining
        case .attemptsExhausted: failure.remainingAttempts = 0
        default: break
        }
        return failure
    }
}
