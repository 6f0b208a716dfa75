import Foundation
import Hummingbird
import SesameProtocol

/// A failure of a JSON endpoint, thrown by endpoint code and turned into an ``APIError`` body
/// by ``APIErrorMiddleware`` (RFC 6749 §5.2 plus the SPEC §1.11 fields).
struct EndpointFailure: Error, Sendable {
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
    /// draft-ietf-oauth-first-party-apps §5.2.2 continuation fields.
    var authSession: String?
    var mfaMethods: [String]?
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

    /// HTTP 429 `too_many_attempts` (2009) from ``LoginThrottle``: the password was not checked.
    static func tooManyAttempts(retryAfter: Int) -> EndpointFailure {
        var failure = EndpointFailure(
            .tooManyAttempts,
            "Too many failed password attempts for this login name or from this address; the password was not checked. Try again in \(retryAfter) second\(retryAfter == 1 ? "" : "s") (Retry-After).")
        failure.retryAfter = retryAfter
        return failure
    }
}
