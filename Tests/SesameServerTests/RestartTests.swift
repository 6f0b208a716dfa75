import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Restart")
struct RestartTests {
    @Test("a restart keeps users, clients, keys and refresh tokens")
    func restartKeepsState() async throws {
        let first = try await TestServer.start()
        var current = first
        do {
            let (tokens, _) = try await OAuthFlow(browser: first.client()).tokens()
            let jwksBefore = try await first.client().get("/jwks").jsonObject["keys"] as? [[String: Any]] ?? []
            let kidsBefore = Set(jwksBefore.compactMap { $0["kid"] as? String })

            current = try await first.restart()
            let browser = current.client()
            let jwksAfter = try await browser.get("/jwks").jsonObject["keys"] as? [[String: Any]] ?? []
            #expect(Set(jwksAfter.compactMap { $0["kid"] as? String }) == kidsBefore)

            let refreshed = try await browser.refresh(try #require(tokens.refreshToken))
            #expect(refreshed.status == 200)
            let newTokens = try refreshed.json(TokenResponse.self)
            #expect(try await browser.userInfo(newTokens.accessToken).status == 200)

            // Users and clients: a fresh browser signs in with the seeded password.
            let (again, _) = try await OAuthFlow(browser: current.client()).tokens()
            #expect(again.idToken != nil)
            #expect(try await current.store.clients().filter { !AdminConsoleClient.isAdminTool($0.clientID) }.count == 4)
            try await current.stop()
        } catch {
            try? await current.stop()
            throw error
        }
    }
}
