import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// Certification modules about single endpoints: discovery, UserInfo, scopes, refused
/// authorization requests and client authentication.
extension BasicOPChecks {
    static func discovery(_ server: TestServer) async throws {
        let metadata = try await CertificationRP(server).metadata()
        #expect(metadata["issuer"] as? String == server.issuer)
        for endpoint in ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"] {
            let url = try #require(metadata[endpoint] as? String, "\(endpoint) missing")
            #expect(url.hasPrefix(server.issuer))
        }
        #expect((metadata["response_types_supported"] as? [String])?.contains("code") == true)
        #expect((metadata["subject_types_supported"] as? [String])?.isEmpty == false)
        #expect((metadata["id_token_signing_alg_values_supported"] as? [String])?.contains("RS256") == true)
        #expect((metadata["scopes_supported"] as? [String])?.contains("openid") == true)
        let claims = Set(metadata["claims_supported"] as? [String] ?? [])
        #expect(claims.isSuperset(of: ["sub", "iss", "auth_time", "acr", "name", "email"]))
        let jwks = try await server.client().get(try #require(metadata["jwks_uri"] as? String))
        #expect((jwks.jsonObject["keys"] as? [Any])?.isEmpty == false)
    }

    static func userInfo(_ server: TestServer, method: String) async throws {
        let rp = CertificationRP(server)
        let (tokens, idToken) = try await rp.tokens()
        let response = try await rp.browser.request(
            method, "/userinfo", headers: ["Authorization": "Bearer \(tokens.accessToken)"])
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(response.jsonObject["sub"] as? String == idToken["sub"] as? String)
    }

    /// RFC 6750 §2.2 (token in the body) is optional and Sesame does not accept it (RFC 9700
    /// §4.3.2 keeps tokens in headers): the module then expects an HTTP error, and RFC 6750
    /// §3.1 a challenge without an error code for a request lacking supported credentials.
    static func userInfoPostBody(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (tokens, _) = try await rp.tokens()
        let response = try await rp.browser.postForm("/userinfo", ["access_token": tokens.accessToken])
        #expect(response.status == 401)
        #expect(response.header("WWW-Authenticate") == #"Bearer realm="sesame""#)
    }

    /// The scope's claims the user has, from `/userinfo` (OIDC Core §5.4).
    static func scope(_ server: TestServer, _ scope: String, expect names: [String]) async throws {
        var user = try #require(try await server.store.user(login: Fixtures.username))
        user.claims.address = AddressClaim(streetAddress: "1 Main St", locality: "Springfield", country: "US")
        try await server.store.updateUser(user)
        var rp = CertificationRP(server)
        rp.flow.scope = "openid " + scope
        let (tokens, _) = try await rp.tokens()
        let granted = Set((tokens.scope ?? "").split(separator: " ").map(String.init))
        let requested = Set(rp.flow.scope.split(separator: " ").map(String.init))
        #expect(granted == requested)
        let claims = try await rp.userInfo(tokens)
        for name in names { #expect(claims[name] != nil, "\(name) missing for scope \(scope)") }
        let others = ClaimRelease.claimsByScope.filter { !scope.split(separator: " ").contains(Substring($0.key)) }
        for name in others.values.joined() { #expect(claims[name] == nil, "\(name) released without its scope") }
    }

    /// Refused authorization requests go back to the redirect URI with `error`, `state` and `iss`.
    static func refused(_ server: TestServer, _ extra: [String: String], error: String) async throws {
        let attempt = OAuthFlow.Attempt()
        let response = try await CertificationRP(server).flow.authorize(attempt, extra: extra)
        #expect(response.status == 303)
        #expect(response.locationQuery["error"] == error)
        #expect(response.locationQuery["state"] == attempt.state)
        #expect(response.locationQuery["iss"] == server.issuer)
    }

    static func responseTypeMissing(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let attempt = OAuthFlow.Attempt()
        let response = try await rp.browser.get("/authorize", query: rp.parameters(attempt, without: ["response_type"]))
        #expect(response.status == 303)
        #expect(["invalid_request", "unsupported_response_type"].contains(response.locationQuery["error"] ?? ""))
        #expect(response.locationQuery["state"] == attempt.state)
    }

    /// An unregistered redirect URI gets an error page, never a redirect (OIDC Core §3.1.2.1).
    static func unregisteredRedirect(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let response = try await rp.flow.authorize(.init(), extra: ["redirect_uri": "https://attacker.example.com/cb"])
        #expect(response.status == 400)
        #expect(response.location == nil)
        #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
    }

    /// OIDC Core §9 `client_secret_post` at the token endpoint.
    static func clientSecretPost(_ server: TestServer) async throws {
        let secret = "post-secret-" + String(repeating: "y", count: 32)
        try await server.store.upsertClient(
            ClientRecord(
                clientID: "post-client", name: "Post", secretHash: try TestServer.hasher.hash(secret),
                redirectURIs: ["https://rp.example.com/cb"], tokenEndpointAuthMethod: .clientSecretPost))
        let rp = CertificationRP(server, clientID: "post-client", redirectURI: "https://rp.example.com/cb")
        let attempt = OAuthFlow.Attempt()
        let code = try await rp.flow.signIn(attempt)
        let response = try await rp.browser.postForm(
            "/token",
            [
                "grant_type": "authorization_code", "code": code, "redirect_uri": "https://rp.example.com/cb",
                "code_verifier": attempt.pkce.verifier, "client_id": "post-client", "client_secret": secret,
            ])
        try #require(response.status == 200, "\(response.text)")
        let tokens = try response.json(TokenResponse.self)
        _ = try await rp.verifiedIDToken(try #require(tokens.idToken), nonce: attempt.nonce)
    }
}
