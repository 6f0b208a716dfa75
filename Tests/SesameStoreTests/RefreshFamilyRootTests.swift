import Foundation
import SQLKit
import SesameProtocol
import Testing
@testable import SesameStore
import StoreTesting

/// Refresh-token families are found by user, session and client through their root token
/// (migration 4): partial indexes over `parent_digest IS NULL`, so rotations skip them. These
/// tests pin what that must not break, on real SQLite files.
@Suite("Refresh-token family roots")
struct RefreshFamilyRootTests {
    /// A family whose root has expired, living on in a successor, as the purge leaves it.
    static func familyOutlivingItsRoot(_ store: SQLIdentityStore, now: Date) async throws
        -> (root: RefreshTokenRecord, live: RefreshTokenSuccessor)
    {
        let root = StoreSamples.refreshToken(
            issuedAt: now.addingTimeInterval(-7200), expiresAt: now.addingTimeInterval(-3600))
        try await store.insertRefreshToken(root)
        let live = StoreSamples.successor(at: now.addingTimeInterval(-4000), lifetime: 8000)
        guard case .redeemed = try await store.rotateRefreshToken(digest: root.tokenDigest, into: live) else {
            throw StoreTestFailure("the rotation did not win")
        }
        return (root, live)
    }

    /// Whether `digest` can still be rotated at `now`.
    static func rotates(_ store: SQLIdentityStore, _ digest: String, now: Date) async throws -> Bool {
        if case .redeemed = try await store.rotateRefreshToken(digest: digest, into: StoreSamples.successor(at: now)) {
            return true
        }
        return false
    }

    @Test("the purge keeps an expired root while its family lives, and drops it with the family")
    func purgeKeepsRootOfLiveFamily() async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            let (root, live) = try await Self.familyOutlivingItsRoot(store, now: now)
            try await store.purgeExpired(now: now)
            #expect(try await store.refreshToken(digest: root.tokenDigest) != nil)
            #expect(try await store.refreshToken(digest: live.tokenDigest) != nil)

            try await store.purgeExpired(now: live.expiresAt)
            #expect(try await store.refreshToken(digest: root.tokenDigest) == nil)
            #expect(try await store.refreshToken(digest: live.tokenDigest) == nil)
        }
    }

    @Test(
        "logout, sign-out everywhere and client removal reach a family whose root expired",
        arguments: ["session", "user", "client"])
    func ownersReachFamilyAfterPurge(owner: String) async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            try await store.upsertClient(StoreSamples.client("demo"))
            let (root, live) = try await Self.familyOutlivingItsRoot(store, now: now)
            try await store.purgeExpired(now: now)
            switch owner {
            case "session": try await store.revokeRefreshTokens(sessionID: "sid-1", now: now)
            case "user":
                try await store.revokeAllTokens(userID: "user-1", now: now, keepingFamily: nil, keepingSession: nil)
            default: #expect(try await store.removeClient(id: "demo"))
            }
            #expect(try await store.isRefreshFamilyRevoked(root.familyID) || owner == "client")
            #expect(try await !Self.rotates(store, live.tokenDigest, now: now))
        }
    }

    @Test("removing a user deletes every token of their families, and only theirs")
    func removeUserDeletesFamilies() async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            var alice = StoreSamples.user("alice")
            alice.id = "user-1"
            try await store.createUser(alice)
            let (root, live) = try await Self.familyOutlivingItsRoot(store, now: now)
            let others = StoreSamples.refreshToken(userID: "user-2", sessionID: "sid-2", expiresAt: now.addingTimeInterval(600))
            try await store.insertRefreshToken(others)

            #expect(try await store.removeUser(id: "user-1"))
            #expect(try await store.refreshToken(digest: root.tokenDigest) == nil)
            #expect(try await store.refreshToken(digest: live.tokenDigest) == nil)
            #expect(try await store.refreshToken(digest: others.tokenDigest) == others)
        }
    }

    @Test("migration 4 makes a token whose parent the old purge deleted its family's root")
    func migrationAdoptsOrphans() async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            let (root, live) = try await Self.familyOutlivingItsRoot(store, now: now)
            // What the purge did before migration 4: the expired root went, the family stayed.
            try await store.database.delete(from: "refresh_tokens").where("token_digest", .equal, root.tokenDigest).run()
            try await store.database.delete(from: "schema_migrations").where("version", .equal, 4).run()
            try await store.migrate()

            try await store.revokeRefreshTokens(sessionID: "sid-1", now: now)
            #expect(try await !Self.rotates(store, live.tokenDigest, now: now))
        }
    }

    @Test("user, session and client are indexed on roots only, successor links on the rest")
    func partialIndexes() async throws {
        try await withSandboxStore { store, _ in
            let indexes = try await store.database.raw("PRAGMA index_list(refresh_tokens)").all()
            let partial = try Set(indexes.filter { try $0.decode(column: "partial", as: Int.self) == 1 }
                .map { try $0.decode(column: "name", as: String.self) })
            #expect(
                partial == [
                    "refresh_tokens_root_user_id", "refresh_tokens_root_session_id", "refresh_tokens_root_client_id",
                    "refresh_tokens_successor", "refresh_tokens_live_root_user_id",
                ])
            let all = try Set(indexes.map { try $0.decode(column: "name", as: String.self) })
            #expect(
                all.isDisjoint(with: [
                    "refresh_tokens_user_id", "refresh_tokens_session_id", "refresh_tokens_client_id",
                    "refresh_tokens_parent_digest",
                ]))

            // The lookups use them (no full scan of refresh_tokens).
            for (column, index) in [
                ("user_id", "refresh_tokens_root_user_id"), ("session_id", "refresh_tokens_root_session_id"),
                ("client_id", "refresh_tokens_root_client_id"), ("parent_digest", "refresh_tokens_successor"),
            ] {
                let condition = column == "parent_digest" ? "" : " AND parent_digest IS NULL"
                let plan = try await store.database.raw(
                    "EXPLAIN QUERY PLAN SELECT family_id FROM refresh_tokens WHERE \(ident: column) = 'x'\(unsafeRaw: condition)"
                ).all().map { try $0.decode(column: "detail", as: String.self) }
                #expect(plan.contains { $0.contains("USING INDEX \(index) ") }, "\(plan)")
            }
            // The session cap's read of a user's live families (migration 8) visits the live
            // roots only, not every family the user ever had.
            let live = try await store.database.raw(
                """
                EXPLAIN QUERY PLAN SELECT family_id FROM refresh_tokens
                WHERE user_id = 'x' AND parent_digest IS NULL AND revoked_at IS NULL
                """
            ).all().map { try $0.decode(column: "detail", as: String.self) }
            #expect(live.contains { $0.contains("USING INDEX refresh_tokens_live_root_user_id ") }, "\(live)")
        }
    }

    @Test("live families of a user with many evicted ones: only the live are read, the cap still holds")
    func liveFamiliesAmongDeadOnes() async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            var families: [String] = []
            for index in 0..<60 {
                let family = "family-\(index)"
                families.append(family)
                try await store.insertRefreshToken(
                    RefreshTokenRecord(
                        tokenDigest: "digest-\(index)", familyID: family, clientID: "client", scope: "openid",
                        authentication: AuthenticationContext(userID: "user-1", authTime: now), sessionID: nil,
                        issuedAt: now.addingTimeInterval(Double(index)), expiresAt: now.addingTimeInterval(3600)))
            }
            for family in families.prefix(50) { try await store.revokeRefreshFamily(family, now: now, reason: .evicted) }
            let live = try await store.liveRefreshFamilies(userID: "user-1", now: now)
            #expect(Set(live.map(\.familyID)) == Set(families.suffix(10)))
        }
    }
}

struct StoreTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
