import Foundation
import Hummingbird
import SesameProtocol

/// What an error adds to its response beyond the ``APIError`` body: a status other than
/// ``APIErrorCode/httpStatus`` and extra headers (e.g. `WWW-Authenticate`, RFC 6750 §3).
/// Only the HTTP layer's own errors have them; the provider's ``ProviderFailure`` has none.
protocol HTTPErrorFields {
    var status: HTTPResponse.Status? { get }
    var headers: HTTPFields { get }
}

extension APIErrorRendering {
    /// The response status: the error's own if it has one, else the code's.
    var responseStatus: HTTPResponse.Status {
        (self as? any HTTPErrorFields)?.status ?? HTTPResponse.Status(code: failure.code.httpStatus)
    }

    /// Extra response headers, if the error has any.
    var responseHeaders: HTTPFields { (self as? any HTTPErrorFields)?.headers ?? [:] }
}

/// A failure of a JSON endpoint: a ``ProviderFailure`` plus what only HTTP knows (a status that
/// differs from the code's, response headers), turned into an ``APIError`` body by
/// ``APIErrorMiddleware`` (RFC 6749 §5.2 plus the `error_code`, `error_id`, `error_user_msg`
/// and `error_details` members of ``APIError``).
struct EndpointFailure: APIErrorRendering, HTTPErrorFields {
    var failure: ProviderFailure
    /// Overrides ``APIErrorCode/httpStatus`` (e.g. 401 for `invalid_client` with Basic auth).
    var status: HTTPResponse.Status?
    /// Extra response headers, e.g. `WWW-Authenticate` (RFC 6750 §3, RFC 6749 §5.2).
    var headers: HTTPFields = [:]

    init(
        _ code: APIErrorCode, _ description: String? = nil, status: HTTPResponse.Status? = nil,
        headers: HTTPFields = [:], details: [FieldError]? = nil, uiLocales: String? = nil
    ) {
        failure = ProviderFailure(code, description, details: details, uiLocales: uiLocales)
        self.status = status
        self.headers = headers
    }

    /// The provider's failure `failure`, answered with `status` and `headers`.
    init(_ failure: ProviderFailure, status: HTTPResponse.Status? = nil, headers: HTTPFields = [:]) {
        self.failure = failure
        self.status = status
        self.headers = headers
    }

    var code: APIErrorCode {
        get { failure.code }
        set { failure.code = newValue }
    }
    var description: String? {
        get { failure.description }
        set { failure.description = newValue }
    }
    var details: [FieldError]? {
        get { failure.details }
        set { failure.details = newValue }
    }
    var remainingAttempts: Int? {
        get { failure.remainingAttempts }
        set { failure.remainingAttempts = newValue }
    }
    var retryAfter: Int? {
        get { failure.retryAfter }
        set { failure.retryAfter = newValue }
    }
    var uiLocales: String? {
        get { failure.uiLocales }
        set { failure.uiLocales = newValue }
    }

    func decorate(_ body: inout APIError) {}
}
