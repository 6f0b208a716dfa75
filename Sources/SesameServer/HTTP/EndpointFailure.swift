import Foundation
import Hummingbird
import SesameProtocol

/// An error that renders itself as an ``APIError`` response: ``APIErrorMiddleware`` writes the
/// common part (``failure``: code, description, status, headers, details, `retry_after`) and
/// lets the error add its own members (``decorate(_:)``), so a feature's fields (e.g. the
/// first-party continuation's `auth_session`) live with the feature, not here.
protocol APIErrorRendering: Error, Sendable {
    /// The members every error response has.
    var failure: EndpointFailure { get set }
    /// Adds this error's own members to the body, after the common ones.
    func decorate(_ body: inout APIError)
}

/// A failure of a JSON endpoint, thrown by endpoint code and turned into an ``APIError`` body
/// by ``APIErrorMiddleware`` (RFC 6749 §5.2 plus the `error_code`, `error_id`,
/// `error_user_msg` and `error_details` members of ``APIError``).
struct EndpointFailure: APIErrorRendering {
    var code: APIErrorCode
    /// Developer-facing text; never contains a token, code, password or secret.
    var description: String?
    /// Overrides ``APIErrorCode/httpStatus`` (e.g. 401 for `invalid_client` with Basic auth).
    var status: HTTPResponse.Status?
    /// Extra response headers, e.g. `WWW-Authenticate` (RFC 6750 §3, RFC 6749 §5.2).
    var headers: HTTPFields = [:]
    /// `error_details`: messages already localized by the endpoint (see
    /// ``Localizer/fieldError(field:code:locales:arguments:)``).
    var details: [FieldError]?
    /// Answers left for a one-time code (verification, MFA, enrolment) after a wrong one.
    var remainingAttempts: Int?
    /// Seconds to wait: sent as `retry_after` and, unless ``headers`` has one, `Retry-After`.
    var retryAfter: Int?
    /// `ui_locales` sent in the request body, preferred over `Accept-Language` for
    /// `error_user_msg`.
    var uiLocales: String?

    init(
        _ code: APIErrorCode, _ description: String? = nil, status: HTTPResponse.Status? = nil,
        headers: HTTPFields = [:], details: [FieldError]? = nil, uiLocales: String? = nil
    ) {
        self.code = code
        self.description = description
        self.status = status
        self.headers = headers
        self.details = details
        self.uiLocales = uiLocales
    }

    var failure: EndpointFailure {
        get { self }
        set { self = newValue }
    }

    func decorate(_ body: inout APIError) {}

    /// HTTP 429 `too_many_attempts` (2009) from ``LoginThrottle``: the password was not checked.
    static func tooManyAttempts(retryAfter: Int) -> EndpointFailure {
        var failure = EndpointFailure(
            .tooManyAttempts,
            "Too many failed password attempts for this login name or from this address; the password was not checked. Try again in \(retryAfter) second\(retryAfter == 1 ? "" : "s") (Retry-After).")
        failure.retryAfter = retryAfter
        return failure
    }
}
