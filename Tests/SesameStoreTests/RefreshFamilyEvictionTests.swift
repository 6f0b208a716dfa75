import Foundation
import SQLKit
import Testing
@testable import SesameStore
import StoreTesting

/// `revokeLiveRefreshFamilies`: the session cap's eviction (issue #28 §7), which several
/// sign-ins of one user may run at once over the same oldest families.
@Suite("Refresh-token families: eviction of live families")
struct RefreshFamilyEvictionTests {
    @Test("only families not revoked yet are revoked and returned; their tokens are stamped, an earlier reason stays", arguments: StoreBackend.available)
    func revokesLiveOnly(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let soon = now.addingTimeInterval(600)
            let later = now.addingTimeInterval(7200)
            let a1 = StoreSamples.refreshToken(family: "fam-a", expiresAt: soon)
            let a2 = StoreSamples.refreshToken(family: "fam-a", expiresAt: later)
            let b = StoreSamples.refreshToken(family: "fam-b", expiresAt: soon)
            let c = StoreSamples.refreshToken(family: "fam-c", expiresAt: soon)
            for token in [a1, a2, b, c] { try await store.insertRefreshToken(token) }
            try await store.revokeRefreshFamily("fam-b", now: now.addingTimeInterval(-60), reason: .signedOut)

            let revoked = try await store.revokeLiveRefreshFamilies(
                ["fam-a", "fam-b", "fam-unknown"], now: now, reason: .evicted)
            #expect(revoked == ["fam-a"])
            #expect(try await store.refreshFamilyRevocationReason("fam-a") == .evicted)
            #expect(try await store.refreshFamilyRevocationReason("fam-b") == .signedOut)
            #expect(try await store.isRefreshFamilyRevoked("fam-unknown") == false)
            #expect(try await store.isRefreshFamilyRevoked("fam-c") == false)
            for token in [a1, a2] { #expect(try await store.refreshToken(digest: token.tokenDigest)?.revokedAt == now) }
            #expect(try await store.refreshToken(digest: c.tokenDigest)?.revokedAt == nil)

            // Remembered as long as its newest token, plus the retention, like any revocation.
            let keptUntil = try await store.database.select().column("expires_at").from("revoked_refresh_families")
                .where("family_id", .equal, "fam-a").first(decodingColumn: "expires_at", as: Double.self)
            #expect(keptUntil == StoreValue.time(later) + SQLIdentityStore.revokedFamilyRetention)

            // Named again: nothing left to revoke.
            #expect(try await store.revokeLiveRefreshFamilies(["fam-a", "fam-b"], now: now, reason: .evicted).isEmpty)
            #expect(try await store.revokeLiveRefreshFamilies([], now: now, reason: .evicted).isEmpty)
        }
    }

    @Test("more families than one statement takes are all revoked", arguments: StoreBackend.available)
    func chunks(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let count = SQLIdentityStore.familiesPerStatement + 7
            var families: [String] = []
            for index in 0..<count {
                let token = StoreSamples.refreshToken(family: "fam-\(index)", expiresAt: now.addingTimeInterval(3600))
                try await store.insertRefreshToken(token)
                families.append(token.familyID)
            }
            let revoked = try await store.revokeLiveRefreshFamilies(families, now: now, reason: .evicted)
            #expect(revoked == Set(families))
        }
    }

    @Test("20 concurrent evictions of the same 10 families: each family is returned by exactly one", arguments: StoreBackend.available)
    func concurrentEvictions(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            var families: [String] = []
            for index in 0..<10 {
                let token = StoreSamples.refreshToken(family: "fam-\(index)", expiresAt: now.addingTimeInterval(3600))
                try await store.insertRefreshToken(token)
                families.append(token.familyID)
            }
            let results = try await withThrowingTaskGroup(of: Set<String>.self) { group in
                for call in 0..<20 {
                    // Each call names the families in its own order.
                    let order = call.isMultiple(of: 2) ? families : families.reversed()
                    group.addTask { try await store.revokeLiveRefreshFamilies(order, now: now, reason: .evicted) }
                }
                var all: [Set<String>] = []
                for try await result in group { all.append(result) }
                return all
            }
            let returned = results.flatMap { $0 }
            #expect(returned.count == families.count, "a family returned twice would be evicted and audited twice")
            #expect(Set(returned) == Set(families))
        }
    }
}
