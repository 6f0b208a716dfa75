import Crypto
import Foundation
import SQLKit
import SesameProtocol
import SesameResourceServer
import SesameResourceServerSQL
@testable import SesameStore
import SesameTesting
import StoreTesting
import Testing

/// What several instances of one API share (issue #44, RFC 9449 §9 and §11.1): the proofs they
/// accepted, in a SQL database (``SQLDPoPReplayStore``), and the nonces they ask proofs to carry
/// (``DPoPResourceNonces`` with one secret). Each instance is an ``AccessTokenValidator`` with its
/// own connection pool to the same database, as two processes would have.
@Suite("Resource server: DPoP replay store and nonces shared by an API's instances")
struct DPoPSharedReplayTests {
    static let url = "https://api.example.com/orders"

    /// Two API instances' validations over one sandbox database (each its own pool).
    static func withTwoInstances(
        _ backend: StoreBackend, nonces: DPoPResourceNonces? = nil,
        _ body: (DPoPValidation, DPoPValidation, SQLDPoPReplayStore) async throws -> Void
    ) async throws {
        try await withSandboxStore(backend) { first, sandbox in
            let second = try await sandbox.open()
            do {
                let one = SQLDPoPReplayStore(database: first.database, purgeEvery: 3)
                let two = SQLDPoPReplayStore(database: second.database)
                try await one.createTable()
                try await two.createTable()  // every instance may run it at start
                try await body(
                    DPoPValidation(maximumAge: 60, replays: one, nonces: nonces),
                    DPoPValidation(maximumAge: 60, replays: two, nonces: nonces), one)
                try await second.close()
            } catch {
                try? await second.close()
                throw error
            }
        }
    }

    @Test("expiry times keep their seconds: a replay just after a 128-second boundary is refused, also in a table an earlier version made with REAL", arguments: StoreBackend.available)
    func expiryPrecision(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let database = store.database
            // 4-byte floats hold times of today to 128 s: B + 61 would round down to B < now.
            let boundary = 1_759_999_872.0  // 128 × 13,749,999
            let now = Date(timeIntervalSince1970: boundary + 1)
            let expiry = Date(timeIntervalSince1970: boundary + 61)
            for (index, legacy) in [false, true].enumerated() {
                let table = "dpop_replays_precision_\(index)"
                if legacy {
                    try await database.raw("CREATE TABLE \(unsafeRaw: table) (replay_key TEXT PRIMARY KEY, expires_at REAL NOT NULL)").run()
                }
                let replays = SQLDPoPReplayStore(database: database, table: table)
                try await replays.createTable()
                #expect(try await replays.record("jti-\(index)", until: expiry, now: now), "the first use")
                #expect(try await !replays.record("jti-\(index)", until: expiry, now: now), "the replay (legacy table: \(legacy))")
            }
        }
    }

    @Test("a proof accepted by one instance is refused by the other; a new proof is accepted by both", arguments: StoreBackend.available)
    func replayAcrossInstances(backend: StoreBackend) async throws {
        try await Self.withTwoInstances(backend) { first, second, _ in
            let maker = DPoPProofMaker()
            let now = Date()
            let proof = maker.proof("GET", Self.url, accessToken: "t", issuedAt: now)
            try await first.check([proof], method: "GET", url: Self.url, accessToken: "t", boundTo: maker.thumbprint, now: now)
            for (name, instance) in [("the other instance", second), ("the same instance", first)] {
                do throws(AccessTokenError) {
                    try await instance.check([proof], method: "GET", url: Self.url, accessToken: "t", boundTo: maker.thumbprint, now: now)
                    Issue.record("\(name) accepted a replayed proof")
                } catch {
                    #expect(error.rule == .dpopProof && error.message.contains("used before"), "\(name): \(error)")
                }
            }
            for instance in [first, second] {
                try await instance.check(
                    [maker.proof("GET", Self.url, accessToken: "t", issuedAt: now)], method: "GET", url: Self.url,
                    accessToken: "t", boundTo: maker.thumbprint, now: now)
            }
        }
    }

    @Test("20 instances' worth of the same proof at once, alternating over two pools: exactly one accepted", arguments: StoreBackend.available)
    func concurrentReplay(backend: StoreBackend) async throws {
        try await Self.withTwoInstances(backend) { first, second, _ in
            let maker = DPoPProofMaker()
            let now = Date()
            let proof = maker.proof("GET", Self.url, accessToken: "t", issuedAt: now)
            let accepted = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    let instance = index % 2 == 0 ? first : second
                    group.addTask {
                        (try? await instance.check(
                            [proof], method: "GET", url: Self.url, accessToken: "t", boundTo: maker.thumbprint, now: now)) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(accepted == 1)
        }
    }

    @Test("expired entries are replaced and purged; the store's table name is checked")
    func expiryAndPurge() async throws {
        try await Self.withTwoInstances(.sqlite) { _, _, store in
            let now = Date()
            #expect(try await store.record("k", until: now.addingTimeInterval(10), now: now))
            #expect(try await !store.record("k", until: now.addingTimeInterval(10), now: now.addingTimeInterval(5)))
            #expect(try await store.record("k", until: now.addingTimeInterval(30), now: now.addingTimeInterval(11)), "expired: recorded again")
            try await store.purge(now: now.addingTimeInterval(31))
            let rows = try await store.database.select().column("replay_key").from(store.table).all()
            #expect(rows.isEmpty)
        }
    }

    @Test("nonces (RFC 9449 section 9): a proof without one gets use_dpop_nonce and a nonce; with it, accepted by every instance sharing the secret")
    func resourceNonces() async throws {
        let nonces = DPoPResourceNonces(secret: SymmetricKey(size: .bits256), lifetime: 60)
        try await Self.withTwoInstances(.sqlite, nonces: nonces) { first, second, _ in
            let maker = DPoPProofMaker()
            let now = Date()
            var issued: String?
            do throws(AccessTokenError) {
                try await first.check(
                    [maker.proof("GET", Self.url, accessToken: "t", issuedAt: now)], method: "GET", url: Self.url,
                    accessToken: "t", boundTo: maker.thumbprint, now: now)
                Issue.record("a proof without a nonce was accepted")
            } catch {
                #expect(error.rule == .dpopNonce && error.errorCode == "use_dpop_nonce" && error.status == 401)
                #expect(error.scheme == "DPoP")
                issued = error.dpopNonce
            }
            let nonce = try #require(issued)
            #expect(BearerChallenge(refusing: AccessTokenError(.dpopNonce, "x")).headerValue.contains("use_dpop_nonce"))
            try await second.check(
                [maker.proof("GET", Self.url, accessToken: "t", nonce: nonce, issuedAt: now)], method: "GET", url: Self.url,
                accessToken: "t", boundTo: maker.thumbprint, now: now)
            // Another API's nonce, a forged one, and this one once expired: each refused with a fresh nonce.
            let foreign = DPoPResourceNonces().issue(now: now)
            for (name, value, at) in [
                ("another secret's", foreign, now), ("forged", String(repeating: "A", count: 43), now),
                ("expired", nonce, now.addingTimeInterval(61)), ("long", String(repeating: "A", count: 4000), now),
            ] {
                do throws(AccessTokenError) {
                    try await first.check(
                        [maker.proof("GET", Self.url, accessToken: "t", nonce: value, issuedAt: at)], method: "GET",
                        url: Self.url, accessToken: "t", boundTo: maker.thumbprint, now: at)
                    Issue.record("\(name) nonce accepted")
                } catch {
                    #expect(error.rule == .dpopNonce, "\(name): \(error)")
                    #expect(error.dpopNonce.map { nonces.accepts($0, now: at) } == true, "\(name): a fresh nonce comes with it")
                }
            }
        }
    }
}
