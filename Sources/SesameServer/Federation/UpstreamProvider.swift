import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SesameProtocol

/// Sesame as the relying party of a federation provider, for the hosted "Continue with …"
/// sign-in (docs/federation.md): the provider's endpoints from its discovery document (OpenID
/// Connect Discovery 1.0 §4, cached for an hour) and the code exchange at its token endpoint
/// (RFC 6749 §4.1.3 with PKCE, `client_secret_basic`).
actor UpstreamProvider {
    struct Endpoints: Sendable {
        var authorization: String
        var token: String
        /// OIDC Core §5.5: the provider takes a `claims` request, so the email can be asked
        /// for in the ID token (where the provider would otherwise release it at UserInfo only).
        var claimsParameterSupported = false
    }

    static let cacheLifetime: TimeInterval = 3_600

    private var cache: [String: (endpoints: Endpoints, fetchedAt: Date)] = [:]
    private let client: HTTPClient
    private let now: @Sendable () -> Date

    init(client: HTTPClient = .shared, now: @escaping @Sendable () -> Date) {
        self.client = client
        self.now = now
    }

    /// The provider's authorization and token endpoints.
    func endpoints(for provider: FederationProviderRecord) async throws(FederationRefusal) -> Endpoints {
        if let cached = cache[provider.id], now().timeIntervalSince(cached.fetchedAt) < Self.cacheLifetime {
            return cached.endpoints
        }
        var issuer = provider.issuer
        while issuer.hasSuffix("/") { issuer.removeLast() }
        let object = try await json(HTTPClientRequest(url: issuer + "/.well-known/openid-configuration"), what: "discovery")
        guard let authorization = object["authorization_endpoint"] as? String,
            let token = object["token_endpoint"] as? String, object["issuer"] as? String == provider.issuer
        else {
            throw .keys("the provider's discovery document lacks its endpoints or names another issuer")
        }
        let endpoints = Endpoints(
            authorization: authorization, token: token,
            claimsParameterSupported: object["claims_parameter_supported"] as? Bool == true)
        cache[provider.id] = (endpoints, now())
        return endpoints
    }

    /// Redeems `code` at the provider; its ID token.
    func idToken(
        code: String, verifier: String, redirectURI: String, clientID: String, secret: String, endpoints: Endpoints
    ) async throws(FederationRefusal) -> String {
        var request = HTTPClientRequest(url: endpoints.token)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        let credentials = FormURLEncoding.escape(clientID) + ":" + FormURLEncoding.escape(secret)
        request.headers.add(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString())
        request.body = .bytes(
            ByteBuffer(
                string: FormURLEncoding.encode([
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                    ("code_verifier", verifier),
                ])))
        let object = try await json(request, what: "token")
        guard let idToken = object["id_token"] as? String else {
            throw .invalidToken(rule: "id_token", "the provider's token response has no id_token")
        }
        return idToken
    }

    private func json(_ request: HTTPClientRequest, what: String) async throws(FederationRefusal) -> [String: Any] {
        let (status, object) = try await ProviderHTTP.json(request, client: client, what: "\(what) endpoint")
        guard status == 200 else {
            throw .invalidToken(rule: "upstream", "the provider's \(what) endpoint refused: \(object["error"] as? String ?? "HTTP \(status)")")
        }
        return object
    }
}
