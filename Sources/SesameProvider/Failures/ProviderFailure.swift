import SesameProtocol
import SesameStore

/// A refusal of the provider's logic: what went wrong in the terms of the protocol (an
/// ``APIErrorCode`` and the RFC 6749 §5.2 members), with nothing of HTTP. The server's HTTP layer
/// turns it into a response: the status is ``APIErrorCode/httpStatus``, the body an ``APIError``
/// (with `error_code`, `error_id` and `error_user_msg`), `Retry-After` from ``retryAfter``.
package struct ProviderFailure: APIErrorRendering, Equatable {
    package var code: APIErrorCode
    /// Developer-facing text; never contains a token, code, password or secret.
    package var description: String?
    /// `error_details`: per-field messages, already localized where the caller localizes them.
    package var details: [FieldError]?
    /// Answers left for a one-time code, PIN or passkey signature after a wrong one.
    package var remainingAttempts: Int?
    /// Seconds to wait before trying again (`retry_after`, and the `Retry-After` header).
    package var retryAfter: Int?
    /// `ui_locales` the request asked for, preferred over `Accept-Language` for `error_user_msg`.
    package var uiLocales: String?

    package init(
        _ code: APIErrorCode, _ description: String? = nil, details: [FieldError]? = nil, uiLocales: String? = nil
    ) {
        self.code = code
        self.description = description
        self.details = details
        self.uiLocales = uiLocales
    }

    package var failure: ProviderFailure {
        get { self }
        set { self = newValue }
    }

    package func decorate(_ body: inout APIError) {}

    /// `too_many_attempts` (2009) from the login throttle: the password was not checked.
    package static func tooManyAttempts(retryAfter: Int) -> ProviderFailure {
        var failure = ProviderFailure(
            .tooManyAttempts,
            "Too many failed password attempts for this login name or from this address; the password was not checked. Try again in \(retryAfter) second\(retryAfter == 1 ? "" : "s") (Retry-After).")
        failure.retryAfter = retryAfter
        return failure
    }
}

extension ProviderFailure {
    /// The answer to a sign-in, grant or token of an account an administrator disabled (issue #47).
    package static let accountDisabled = ProviderFailure(
        .accountDisabled, "An administrator disabled this account; it cannot sign in until it is enabled again.")
}
