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

    init(
        _ code: APIErrorCode, _ description: String? = nil, status: HTTPResponse.Status? = nil,
        headers: HTTPFields = [:]
    ) {
        self.code = code
        self.description = description
        self.status = status
        self.headers = headers
    }
}
