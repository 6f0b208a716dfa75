import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// Certification modules about the browser session: `prompt`, `max_age`, `id_token_hint`,
/// code reuse and refresh.
extension BasicOPChecks {
    static func promptLogin(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (_, first) = try await rp.tokens()
        server.clock.advance(by: 2)
        let page = try await rp.flow.authorize(.init(), extra: ["prompt": "login"])
        #expect(page.status == 200)  // the login form despite the session
        let (_, second) = try await rp.tokens(extra: ["prompt": "login"])
        #expect((second["auth_time"] as? Int ?? 0) > (first["auth_time"] as? Int ?? .max))
    }

    static func promptNoneWithoutSession(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let attempt = OAuthFlow.Attempt()
        let response = try await rp.flow.authorize(attempt, extra: ["prompt": "none"])
        #expect(response.status == 303)
        #expect(response.locationQuery["error"] == "login_required")
        #expect(response.locationQuery["state"] == attempt.state)
        #expect(response.locationQuery["iss"] == server.issuer)
    }

    static func promptNoneWithSession(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (_, first) = try await rp.tokens()
        let (_, second) = try await rp.tokens(extra: ["prompt": "none"])
        #expect(second["sub"] as? String == first["sub"] as? String)
        #expect(second["auth_time"] as? Int == first["auth_time"] as? Int)
    }

    static func maxAgeOne(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (_, first) = try await rp.tokens()
        server.clock.advance(by: 2)
        let page = try await rp.flow.authorize(.init(), extra: ["max_age": "1"])
        #expect(page.status == 200)  // re-authentication: the login form
        let before = Int(server.clock.now().timeIntervalSince1970)
        let (_, second) = try await rp.tokens(extra: ["max_age": "1"])
        let authTime = try #require(second["auth_time"] as? Int)
        #expect(authTime > (first["auth_time"] as? Int ?? .max))
        #expect(authTime >= before)
    }

    static func maxAgeLong(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (_, first) = try await rp.tokens()
        server.clock.advance(by: 2)
        let silent = try await rp.flow.authorize(.init(), extra: ["max_age": "10000"])
        #expect(silent.status == 303)  // the session is recent enough: no login form
        let (_, second) = try await rp.tokens(extra: ["max_age": "10000"])
        #expect(second["auth_time"] as? Int == first["auth_time"] as? Int)
    }

    static func idTokenHint(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (tokens, first) = try await rp.tokens()
        let hint = try #require(tokens.idToken)
        let (_, second) = try await rp.tokens(extra: ["prompt": "none", "id_token_hint": hint])
        #expect(second["sub"] as? String == first["sub"] as? String)
    }

    /// A code used twice fails the second time, and the tokens of the first use are revoked
    /// (RFC 6749 §4.1.2; the module waits 30 s in its second variant).
    static func codeReuse(_ server: TestServer, after seconds: TimeInterval) async throws {
        let rp = CertificationRP(server)
        let attempt = OAuthFlow.Attempt()
        let code = try await rp.flow.signIn(attempt)
        let first = try await rp.flow.exchange(code, attempt: attempt)
        try #require(first.status == 200)
        let tokens = try first.json(TokenResponse.self)
        server.clock.advance(by: seconds)
        let second = try await rp.flow.exchange(code, attempt: attempt)
        #expect(second.status == 400)
        #expect(second.jsonObject["error"] as? String == "invalid_grant")
        #expect(try await rp.browser.userInfo(tokens.accessToken).status == 401)
    }

    static func refreshToken(_ server: TestServer) async throws {
        var rp = CertificationRP(server)
        rp.flow.scope = "openid offline_access"
        let (tokens, first) = try await rp.tokens()
        let refreshToken = try #require(tokens.refreshToken)
        server.clock.advance(by: 5)
        let response = try await rp.browser.refresh(refreshToken)
        try #require(response.status == 200, "\(response.text)")
        let refreshed = try response.json(TokenResponse.self)
        #expect(refreshed.refreshToken != nil && refreshed.refreshToken != refreshToken)
        // OIDC Core §12.2: same iss, sub, aud and auth_time; no nonce to compare.
        let second = try await rp.verifiedIDToken(try #require(refreshed.idToken), nonce: nil)
        for claim in ["sub", "aud", "iss"] { #expect(second[claim] as? String == first[claim] as? String) }
        #expect(second["auth_time"] as? Int == first["auth_time"] as? Int)
        #expect(try await rp.userInfo(refreshed)["sub"] as? String == first["sub"] as? String)
        let replay = try await rp.browser.refresh(refreshToken)
        #expect(replay.status == 400)
        #expect(replay.jsonObject["error"] as? String == "invalid_grant")
    }
}
