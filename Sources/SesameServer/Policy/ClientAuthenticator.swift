import Foundation
import Hummingbird
import SesameProtocol

/// Client authentication at the token, revocation and introspection endpoints
/// (RFC 6749 §2.3.1, OIDC Core §9): `client_secret_basic`, `client_secret_post`, or `none`
/// (public clients identify themselves with `client_id` only, RFC 6749 §2.3 / RFC 8252 §8.4).
///
/// Confidential clients may use either secret method whatever their registered
/// `token_endpoint_auth_method`; a request using both at once is refused (RFC 6749 §2.3).
struct ClientAuthenticator: Sendable {
    let store: any IdentityStore
    let verifier: CredentialVerifier
    /// The per-client request limit of the token endpoints, checked once the client is known
    /// and before its secret is (``RequestRateLimits``).
    var rateLimits: RequestRateLimits? = nil

    /// The authenticated client. Throws `invalid_client` (401) when authentication fails and
    /// `invalid_request` when the request is ambiguous.
    func authenticate(
        _ request: Request, form: [String: String], requireConfidential: Bool = false
    ) async throws -> ClientRecord {
        let basic = try Self.basicCredentials(request)
        let challenge: HTTPFields =
            basic != nil ? [.wwwAuthenticate: "Basic realm=\"sesame\", charset=\"UTF-8\""] : [:]
        func failure(_ description: String) -> EndpointFailure {
            EndpointFailure(.invalidClient, description, status: .unauthorized, headers: challenge)
        }

        if basic != nil && form[OAuthParameter.clientSecret] != nil {
            throw EndpointFailure(
                .invalidRequest, "Use either HTTP Basic or client_secret in the body, not both.")
        }
        let clientID: String
        let secret: String?
        if let basic {
            if let formID = form[OAuthParameter.clientID], formID != basic.id {
                throw EndpointFailure(.invalidRequest, "client_id does not match the Authorization header.")
            }
            clientID = basic.id
            secret = basic.secret
        } else {
            guard let formID = form[OAuthParameter.clientID], !formID.isEmpty else {
                throw failure("Authenticate the client: send client_id (and its secret if it has one).")
            }
            clientID = formID
            secret = form[OAuthParameter.clientSecret]
        }
        guard let client = try await store.client(id: clientID) else {
            throw failure("client_id is not registered.")
        }
        _ = try await rateLimits?.admitClient(.token, clientID: client.clientID)
        if client.isConfidential {
            guard let secret, !secret.isEmpty, await verifier.verifyClientSecret(secret, for: client) else {
                throw failure("The client secret is missing or wrong.")
            }
        } else {
            if secret != nil {
                throw failure("This client is public and has no secret; send client_id only.")
            }
            if requireConfidential {
                throw failure("Only confidential clients may call this endpoint.")
            }
        }
        return client
    }

    /// RFC 6749 §2.3.1 / RFC 7617: `Basic base64(urlencode(id) ":" urlencode(secret))`.
    static func basicCredentials(_ request: Request) throws -> (id: String, secret: String)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return nil }
        guard let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"),
            let id = String(text[..<colon]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
            let secret = String(text[text.index(after: colon)...])
                .replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
            !id.isEmpty
        else {
            throw EndpointFailure(
                .invalidClient, "The Authorization header is not valid HTTP Basic credentials.",
                status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"sesame\""])
        }
        return (id, secret)
    }
}
