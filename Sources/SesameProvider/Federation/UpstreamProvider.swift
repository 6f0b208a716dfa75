import Foundation
import SesameProtocol
import SesameStore

/// Sesame as the relying party of a federation provider, for the hosted "Continue with …"
/// sign-in (docs/federation.md): the provider's endpoints from its discovery document (OpenID
/// Connect Discovery 1.0 §4, cached for an hour) and the code exchange at its token endpoint
/// (RFC 6749 §4.1.3 with PKCE, `client_secret_basic`).
package actor UpstreamProvider {
    package struct Endpoints: Sendable {
        package var authorization: String
        package var token: String
        /// OIDC Core §5.5: the provider takes a `claims` request, so the email can be asked
        /// for in the ID token (where the provider would otherwise release it at UserInfo only).
        package var claimsParameterSupported = false
    }

    package static let cacheLifetime: TimeInterval = 3_600

    /// By provider id and issuer: an operator's change of the issuer (admin API) misses at once
    /// in every process.
    private var cache: [String: (endpoints: Endpoints, fetchedAt: Date)] = [:]
    private let transport: any UpstreamTransport
    private let now: @Sendable () -> Date

    package init(transport: any UpstreamTransport, now: @escaping @Sendable () -> Date) {
        self.transport = transport
        self.now = now
    }

    /// The provider's authorization and token endpoints.
    package func endpoints(for provider: FederationProviderRecord) async throws(FederationRefusal) -> Endpoints {
        let key = provider.id + " " + provider.issuer
        if let cached = cache[key], now().timeIntervalSince(cached.fetchedAt) < Self.cacheLifetime {
            return cached.endpoints
        }
        var issuer = provider.issuer
        while issuer.hasSuffix("/") { issuer.removeLast() }
        let object = try await json(UpstreamRequest(url: issuer + "/.well-known/openid-configuration"), what: "discovery")
        guard let authorization = object["authorization_endpoint"] as? String,
            let token = object["token_endpoint"] as? String, object["issuer"] as? String == provider.issuer
        else {
            throw .keys("the provider's discovery document lacks its endpoints or names another issuer")
        }
        let endpoints = Endpoints(
            authorization: authorization, token: token,
            claimsParameterSupported: object["claims_parameter_supported"] as? Bool == true)
        if cache.count >= 1_000 { cache.removeAll() }
        cache[key] = (endpoints, now())
        return endpoints
    }

    /// Redeems `code` at the provider; its ID token.
    package func idToken(
        code: String, verifier: String, redirectURI: String, clientID: String, secret: String, endpoints: Endpoints
    ) async throws(FederationRefusal) -> String {
        let credentials = FormURLEncoding.escape(clientID) + ":" + FormURLEncoding.escape(secret)
        let form = FormURLEncoding.encode([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", verifier),
        ])
        let request = UpstreamRequest(
            url: endpoints.token, method: .post,
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"),
                ("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()),
            ],
            body: Data(form.utf8))
        let object = try await json(request, what: "token")
        guard let idToken = object["id_token"] as? String else {
            throw .invalidToken(rule: "id_token", "the provider's token response has no id_token")
        }
        return idToken
    }

    private func json(_ request: UpstreamRequest, what: String) async throws(FederationRefusal) -> [String: Any] {
        let (status, object) = try await UpstreamHTTP.json(request, transport: transport, what: "\(what) endpoint")
        guard status == 200 else {
            throw .invalidToken(rule: "upstream", "the provider's \(what) endpoint refused: \(object["error"] as? String ?? "HTTP \(status)")")
        }
        return object
    }
}
