import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// The admin API on two server processes of one PostgreSQL deployment (issue #47: "a change made
/// through one process is seen by the others at once"). Both keep client records for a minute
/// here, so only the change notification (`NOTIFY sesame_changes`) can explain a change seen at
/// the other process within the test's second.
@Suite("Admin API across two server processes", .needsPostgreSQL)
struct AdminAcrossProcessesTests {
    @Test("a client edited, a user disabled and a key removed at one process take effect at the other at once")
    func changesSeenAtOnce() async throws {
        try await withTwoServers(configure: { $0.clientCacheLifetime = .seconds(60); $0.keyChangeInterval = nil }) { first, second in
            let admin = try await AdminOperator.signIn(first, username: "boss", role: .admin)
            let other = second.portClient()
            // Both processes beat at start: the overview's health lists them.
            let overview = try (try await admin.get("/admin/api/overview", query: ["window": "hour"])).json(AdminOverview.self)
            #expect(overview.health.processes.count == 2, "\(overview.health.processes)")
            let newURI = "com.example.app:/moved"
            // The other process has the client cached: the new URI is refused there.
            #expect(try await OAuthFlow(browser: other, redirectURI: newURI).authorize(.init()).status == 400)
            #expect(try await OAuthFlow(browser: other).authorize(.init()).status == 200)

            let edit = #"{"redirect_uris": ["\#(newURI)"]}"#
            #expect(try await admin.post("/admin/api/clients/\(Fixtures.nativeApp)", json: edit).status == 200)
            #expect(try await Self.within(.seconds(1)) {
                try await OAuthFlow(browser: other, redirectURI: newURI).authorize(.init()).status == 200
            }, "the other process still used its cached client")

            // A disabled user's refresh token fails at the other process at once.
            let restore = #"{"redirect_uris": ["\#(Fixtures.nativeRedirect)", "\#(Fixtures.loopbackRegistered)"]}"#
            #expect(try await admin.post("/admin/api/clients/\(Fixtures.nativeApp)", json: restore).status == 200)
            #expect(try await Self.within(.seconds(1)) { try await OAuthFlow(browser: other).authorize(.init()).status == 200 })
            let (tokens, _) = try await OAuthFlow(browser: first.client()).tokens()
            let user = try #require(try await first.store.user(login: Fixtures.username))
            #expect(try await admin.post("/admin/api/users/\(user.id)/disable").status == 200)
            #expect(try await other.refresh(try #require(tokens.refreshToken)).status == 400)

            // A key removed at once stops verifying at the other process at once.
            let kid = try AdminKeyRetirementTests.kid(of: admin.accessToken)
            // (Not /admin/api/keys, which reads the key table itself.)
            let probe = "/admin/api/audit?limit=1"
            #expect(try await other.get(probe, headers: admin.auth).status == 200)
            #expect(try await admin.post("/admin/api/keys/\(kid)/retire", json: #"{"immediately": true}"#).status == 200)
            #expect(try await Self.within(.seconds(1)) {
                try await other.get(probe, headers: admin.auth).status == 401
            }, "the other process still accepted a token of the removed key")
        }
    }

    /// Whether `condition` holds within `limit` (checked every 20 ms).
    static func within(_ limit: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }
}
