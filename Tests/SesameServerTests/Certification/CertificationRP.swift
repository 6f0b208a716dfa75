import SesameTesting
import Foundation
import TestSupport
import JWTKit
import SesameProtocol
import Testing
@testable import SesameServer

/// The relying party side of the OpenID certification modules: a browser driving the code flow
/// (``OAuthFlow``) and an ID token check done the way a conformance suite does it, from the
/// published metadata and JWKS over HTTP (OIDC Core §3.1.3.7), not from the server's key ring.
struct CertificationRP {
    let server: TestServer
    var flow: OAuthFlow

    init(_ server: TestServer, clientID: String = Fixtures.nativeApp, redirectURI: String = Fixtures.nativeRedirect) {
        self.server = server
        flow = OAuthFlow(browser: server.client(), clientID: clientID, redirectURI: redirectURI)
        flow.scope = "openid"
    }

    var browser: HTTPTestClient { flow.browser }

    /// The discovery document, as JSON.
    func metadata() async throws -> [String: Any] {
        let response = try await browser.get("/.well-known/openid-configuration")
        try #require(response.status == 200)
        return response.jsonObject
    }

    /// The ID token's claims after the §3.1.3.7 checks: signature by a published key of the
    /// header's `kid` and `alg`, `iss`, `aud` (and `azp`), `exp` and `iat`, and `nonce` when
    /// one was sent.
    func verifiedIDToken(_ token: String, nonce: String?) async throws -> [String: Any] {
        let jwksURL = try #require(try await metadata()["jwks_uri"] as? String)
        let jwks = try await browser.get(jwksURL)
        try #require(jwks.status == 200)
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: jwks.text)
        let header = JWTParts.header(token)
        #expect(["RS256", "ES256"].contains(header["alg"] as? String ?? ""))
        _ = try await keys.verify(token, as: IDTokenClaims.self)

        let claims = JWTParts.payload(token)
        #expect(claims["iss"] as? String == server.issuer)
        #expect(claims["aud"] as? String == flow.clientID)
        #expect(claims["azp"] == nil || claims["azp"] as? String == flow.clientID)
        let now = server.clock.now().timeIntervalSince1970
        #expect(Double(claims["exp"] as? Int ?? 0) > now)
        #expect(abs(Double(claims["iat"] as? Int ?? 0) - now) < 60)
        #expect(claims["sub"] is String)
        if let nonce { #expect(claims["nonce"] as? String == nonce) }
        return claims
    }

    /// Signs in (login form, or SSO when the browser has a session) and exchanges the code.
    func tokens(extra: [String: String] = [:]) async throws -> (TokenResponse, [String: Any]) {
        let (tokens, attempt) = try await flow.tokens(extra: extra)
        let idToken = try await verifiedIDToken(try #require(tokens.idToken), nonce: attempt.nonce)
        return (tokens, idToken)
    }

    /// `/userinfo` with the Bearer header; its JSON object.
    func userInfo(_ tokens: TokenResponse) async throws -> [String: Any] {
        let response = try await browser.userInfo(tokens.accessToken)
        try #require(response.status == 200, "\(response.status) \(response.text)")
        return response.jsonObject
    }

    /// The authorization request's parameters without `names`.
    func parameters(_ attempt: OAuthFlow.Attempt, without names: Set<String>, extra: [String: String] = [:])
        -> [String: String]
    {
        flow.parameters(attempt, extra: extra).filter { !names.contains($0.key) }
    }
}
