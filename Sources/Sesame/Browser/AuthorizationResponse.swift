import Foundation
import SesameProtocol

/// A successful authorization response (RFC 6749 §4.1.2), read from the redirect URI after the
/// checks that bind it to the pending request: same redirect URI, same `state` (RFC 6749
/// §10.12, compared in constant time) and the RFC 9207 `iss` parameter.
struct AuthorizationResponse: Sendable {
    let code: String
    let state: String
    let issuer: String?

    /// Whether `url` was sent to `redirectURI`: same scheme, host, port and path (RFC 8252
    /// §8.10). The query is the response and is not compared. Loopback agents may pick the
    /// port, so it is compared as given in `redirectURI`.
    static func matches(_ url: URL, redirectURI: URL) -> Bool {
        func path(_ url: URL) -> String {
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            let path = components?.percentEncodedPath ?? ""
            return path.isEmpty ? "/" : path
        }
        return url.scheme?.lowercased() == redirectURI.scheme?.lowercased()
            && url.host?.lowercased() == redirectURI.host?.lowercased()
            && url.port == redirectURI.port
            && path(url) == path(redirectURI)
    }

    /// The response parameters of a redirect URL (query; the fragment is ignored: Sesame uses
    /// `response_mode=query`). `nil` when the query is malformed or repeats a parameter.
    static func parameters(of url: URL) -> [String: String]? {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return FormURLEncoding.decode(query)
    }

    /// Parses and checks the redirect for `request`.
    /// - Parameter issRequired: the provider advertises
    ///   `authorization_response_iss_parameter_supported` (RFC 9207 §2.4: then `iss` MUST be
    ///   present and equal).
    init(url: URL, request: AuthorizationRequest, issRequired: Bool) throws(SesameError) {
        guard Self.matches(url, redirectURI: request.redirectURI) else {
            throw .protocolViolation("the redirect went to \(url.scheme ?? "")://\(url.host ?? "")\(url.path), not to the pending request's redirect URI")
        }
        guard let parameters = Self.parameters(of: url) else {
            throw .protocolViolation("the redirect query is malformed or repeats a parameter")
        }
        guard let state = parameters[OAuthParameter.state], ConstantTime.equals(state, request.state) else {
            throw .protocolViolation("the redirect's state does not match the sign-in request (possible CSRF); start sign-in again")
        }
        let issuer = parameters[OAuthParameter.issuer]
        if let issuer {
            guard issuer == request.issuer else {
                throw .protocolViolation("the redirect's iss \"\(issuer)\" is not the expected issuer \"\(request.issuer)\" (RFC 9207 mix-up defence)")
            }
        } else if issRequired {
            throw .protocolViolation("the redirect has no iss parameter although the provider promises one (RFC 9207 §2.4)")
        }
        if let error = parameters[OAuthParameter.error] {
            let apiError = APIError(
                error: error, errorDescription: parameters[OAuthParameter.errorDescription],
                errorURI: parameters["error_uri"])
            if error == "insufficient_authorization" { throw .stepUpRequired(apiError) }
            throw .authenticationFailed(apiError, status: 400)
        }
        guard let code = parameters[OAuthParameter.code], !code.isEmpty else {
            throw .protocolViolation("the redirect has neither code nor error")
        }
        self.code = code
        self.state = state
        self.issuer = issuer
    }
}
