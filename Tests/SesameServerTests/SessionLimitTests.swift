import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing

@testable import SesameServer

/// Issue #28 §7: a user's live sessions (refresh-token families) are capped per client and per
/// user; past a cap the least recently used is revoked, audited, and its next refresh says why.
@Suite("Session limits per user and client")
struct SessionLimitTests {
    @Test("with 3 per client: sign in 3 times, use the first, sign in twice more; the 2 least recently used are evicted and audited", arguments: StoreBackend.available)
    func perClient(backend: StoreBackend) async throws {
        try await withTestServer(backend, configure: { $0.sessionLimits = SessionLimits(perClient: 3, perUser: 10) }) { server in
            let browser = server.client()
            func signIn() async throws -> String {
                server.clock.advance(by: 5)
                return try #require(try await OAuthFlow(browser: server.client()).tokens().0.refreshToken)
            }
            let first = try await signIn()
            let second = try await signIn()
            let third = try await signIn()
            // The first family is used again: it is now the most recently used.
            server.clock.advance(by: 5)
            let refreshed = try #require(try await browser.refresh(first).json(TokenResponse.self).refreshToken)
            let fourth = try await signIn()
            let fifth = try await signIn()

            let user = try #require(try await server.store.user(login: Fixtures.username))
            let live = try await server.store.liveRefreshFamilies(userID: user.id, now: server.clock.now())
            #expect(live.count == 3, "\(live)")
            for evicted in [second, third] {
                let answer = try await browser.refresh(evicted)
                #expect(answer.status == 400)
                #expect(try answer.json(APIError.self).errorDescription?.contains("more live sessions") == true)
            }
            for kept in [refreshed, fourth, fifth] { #expect(try await browser.refresh(kept).status == 200) }

            await server.running.flushAuditLog()
            let log = server.store
            let evictions = try await log.auditRecords(AuditQuery(events: ["session.evicted"]))
            #expect(evictions.count == 2)
            #expect(evictions.allSatisfy { $0.reason == "per_client" && $0.userID == user.id && $0.clientID == Fixtures.nativeApp })
            #expect(try await log.auditRecords(AuditQuery(events: ["refresh.reuse_detected"])).isEmpty)
        }
    }

    @Test("20 sign-ins at once past the cap: the cap holds and each evicted family is revoked and audited once", arguments: StoreBackend.available)
    func concurrentSignIns(backend: StoreBackend) async throws {
        try await withTestServer(backend, configure: { $0.sessionLimits = SessionLimits(perClient: 3, perUser: 10) }) { server in
            // One signed-in browser: its session answers every later authorization request
            // at once (single sign-on), so the 20 sign-ins are not 20 password checks.
            let browser = server.client()
            for _ in 0..<3 {
                server.clock.advance(by: 5)
                _ = try await OAuthFlow(browser: browser).tokens()
            }
            server.clock.advance(by: 5)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask { _ = try await OAuthFlow(browser: browser).tokens() }
                }
                try await group.waitForAll()
            }
            let user = try #require(try await server.store.user(login: Fixtures.username))
            let live = try await server.store.liveRefreshFamilies(userID: user.id, now: server.clock.now())
            // Sign-ins at the same instant may evict each other's new family, so fewer may live.
            #expect((1...3).contains(live.count), "\(live)")

            await server.running.flushAuditLog()
            let log = server.store
            let evictions = try await log.auditRecords(AuditQuery(events: ["session.evicted"]))
            let evictedFamilies = evictions.compactMap { $0.detail["family_id"] }
            #expect(evictedFamilies.count == evictions.count)
            #expect(Set(evictedFamilies).count == evictedFamilies.count, "a family audited twice: \(evictedFamilies)")
            #expect(evictions.count == 23 - live.count)
        }
    }

    @Test("the per-user cap counts every client's families")
    func perUser() async throws {
        try await withTestServer(configure: { $0.sessionLimits = SessionLimits(perClient: 10, perUser: 2) }) { server in
            let first = try await OAuthFlow(browser: server.client()).tokens().0
            server.clock.advance(by: 5)
            _ = try await OAuthFlow(browser: server.client(), clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect).tokens()
            server.clock.advance(by: 5)
            _ = try await OAuthFlow(browser: server.client(), clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect).tokens()
            let answer = try await server.client().refresh(try #require(first.refreshToken))
            #expect(answer.status == 400, "the oldest family, of another client, was evicted")
        }
    }
}
