import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Key rotation")
struct KeyRotationFlowTests {
    @Test("after rotation old tokens still verify, new tokens use a new key, JWKS lists both")
    func rotation() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let (before, _) = try await OAuthFlow(browser: browser).tokens()
            let oldKid = try #require(JWTParts.header(before.accessToken)["kid"] as? String)
            let oldIDToken = try #require(before.idToken)
            let oldIDKid = try #require(JWTParts.header(oldIDToken)["kid"] as? String)

            try await server.keyRing.rotate(overlap: 3600, publishAhead: 0)

            let jwks = try await browser.get("/jwks").jsonObject["keys"] as? [[String: Any]] ?? []
            let kids = Set(jwks.compactMap { $0["kid"] as? String })
            #expect(kids.contains(oldKid))
            #expect(kids.contains(oldIDKid))

            // Old access token still accepted, old ID token still verifies.
            #expect(try await browser.userInfo(before.accessToken).status == 200)
            _ = try await server.keyRing.verify(try #require(before.idToken), as: IDTokenClaims.self)

            let refreshed = try await browser.refresh(try #require(before.refreshToken)).json(TokenResponse.self)
            let newKid = try #require(JWTParts.header(refreshed.accessToken)["kid"] as? String)
            #expect(newKid != oldKid)
            #expect(kids.contains(newKid))
            #expect(try await browser.userInfo(refreshed.accessToken).status == 200)
        }
    }
}
