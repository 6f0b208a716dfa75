import Foundation
import SesameProtocol
import SesameStore

/// Authorization request parameters Sesame does not support, each refused with the error OIDC
/// Core defines for it. Discovery says so up front (`request_parameter_supported` and
/// `request_uri_parameter_supported` are `false`, and there is no `registration_endpoint`).
///
/// The errors go back to the client's redirect URI with `state` and `iss`, like the other
/// authorization errors, once `client_id` and `redirect_uri` are known to be valid
/// (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6).
package enum UnsupportedRequestParameter: String, CaseIterable, Sendable {
    /// OIDC Core §6.1: a Request Object by value → `request_not_supported`.
    case request
    /// OIDC Core §6.2: a Request Object by reference → `request_uri_not_supported`.
    case requestURI = "request_uri"
    /// OIDC Core §7.2.1: Self-Issued OP registration metadata → `registration_not_supported`.
    case registration

    /// The first unsupported parameter present in `parameters`. An empty value counts as
    /// absent (RFC 6749 §3.1).
    package static func first(in parameters: [String: String]) -> UnsupportedRequestParameter? {
        allCases.first { parameters[$0.rawValue].map { !$0.isEmpty } ?? false }
    }

    package var code: APIErrorCode {
        switch self {
        case .request: .requestNotSupported
        case .requestURI: .requestURINotSupported
        case .registration: .registrationNotSupported
        }
    }

    package var description: String {
        switch self {
        case .request:
            "The request parameter (Request Object) is not supported; send the parameters in the query."
        case .requestURI:
            "The request_uri parameter is not supported; send the parameters in the query."
        case .registration:
            "The registration parameter is not supported; register the client with the server operator."
        }
    }
}
