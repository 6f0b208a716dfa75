import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Synchronization
import Testing
@testable import SesameStore

/// Two real `sesame serve` processes on one PostgreSQL database, refresh traffic spread over
/// both, and `kill -9` of one of them in the middle of it: the other keeps serving (no 5xx, no
/// refusal of a token it should accept), no rotation a client was told about is lost, and no
/// token family is left with two live tokens or none.
@Suite(
    "kill -9 of one of two sesame serve processes under refresh traffic (PostgreSQL)",
    .enabled(if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired, "no PostgreSQL here; CI runs this"))
struct ProcessKillTests {
    static let families = 12

    @Test("the survivor serves on; committed rotations hold; every family has exactly one live token or was revoked")
    func killOneOfTwo() async throws {
        let sandbox = try await StoreSandbox.make(.postgres)
        let temp = try TempDirectory("kill")
        defer { temp.remove() }
        let database = try TwoServeProcesses.databaseURL(sandbox)
        let seed = temp.url.appendingPathComponent("seed.yaml")
        try Data(
            """
            clients:
              - client_id: kill-app
                redirect_uris: [com.example.kill:/cb]
                grant_types: [authorization_code, refresh_token]
                token_endpoint_auth_method: none
                first_party: true
            users:
              - username: alice
                email: alice@example.com
                password: a-long-password-for-kill
                email_verified: true
            """.utf8
        ).write(to: seed)
        let arguments = [
            "serve", "--port", "0", "--issuer", "https://id.example.test", "--data-dir", temp.path("data"),
            "--config", seed.path, "--purge-interval", "0", "--log-level", "error",
            // All the traffic comes from 127.0.0.1: no per-address limit on the token endpoint.
            "--rate-limit", "token=off",
        ]
        let (first, survivor) = try await TwoServeProcesses.start(
            arguments, environment: ["SESAME_DATABASE_URL": database])
        let victimClient = HTTPTestClient(baseURL: try await TwoServeProcesses.listening(first))
        let survivorClient = HTTPTestClient(baseURL: try await TwoServeProcesses.listening(survivor))

        let outcome = try await survivor.whileRunning {
            var tokens: [String] = []
            for _ in 0..<Self.families { tokens.append(try await Self.signIn(victimClient)) }
            let ledger = Ledger(tokens)
            let killAt = ContinuousClock.now + .milliseconds(1500)
            let end = killAt + .milliseconds(1500)
            let killed = KillSwitch()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for family in 0..<Self.families {
                    group.addTask {
                        try await Self.traffic(
                            family, ledger: ledger, until: end, victim: victimClient, survivor: survivorClient,
                            killed: killed)
                    }
                }
                group.addTask {
                    try await Task.sleep(until: killAt)
                    killed.set()
                    _ = try await first.kill()
                }
                try await group.waitForAll()
            }
            // Afterwards every family that was never in doubt rotates once more at the survivor.
            for family in 0..<Self.families where await ledger.state(family).live {
                let state = await ledger.state(family)
                let response = try await Self.refresh(state.token, at: survivorClient)
                // A request cut off by the kill whose retry did not come before the end (a slow
                // machine): a replay now is the same outcome as during the traffic.
                if response.status == 400, state.inDoubt {
                    await ledger.revokedInDoubt(family)
                    continue
                }
                #expect(response.status == 200, "family \(family): its last committed token was refused: \(response.text)")
            }
            return await ledger.summary()
        }
        _ = try await survivor.terminate()

        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.rotationsAtVictim > 0 && outcome.rotationsAtSurvivorAfterKill > 0, "\(outcome)")
        // The database: no family has two live (unrotated, unrevoked) tokens, and every family
        // that is not revoked has exactly one.
        let store = try await SQLIdentityStore.open(.postgres(try #require(sandbox.postgres), poolSize: 2), logger: StoreSamples.logger)
        let rows = try await store.database.raw(
            """
            SELECT t.family_id AS family, COUNT(*) AS live FROM refresh_tokens t
            WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens c WHERE c.parent_digest = t.token_digest)
              AND t.revoked_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM revoked_refresh_families r WHERE r.family_id = t.family_id)
            GROUP BY t.family_id
            """
        ).all()
        let live = try rows.map { (try $0.decode(column: "family", as: String.self), try $0.decode(column: "live", as: Int.self)) }
        #expect(live.allSatisfy { $0.1 == 1 }, "families with more than one live token: \(live.filter { $0.1 != 1 })")
        #expect(live.count == Self.families - outcome.revokedInDoubt, "\(live.count) live families, \(outcome)")
        try await store.close()
        await sandbox.dispose()
        print(
            "kill -9 test: \(outcome.rotationsAtVictim) rotations at the killed process, \(outcome.rotationsAtSurvivor) at the survivor (\(outcome.rotationsAtSurvivorAfterKill) after the kill), \(outcome.inDoubt) in flight at the kill (\(outcome.revokedInDoubt) of them committed there, so their retry was a replay and revoked the family)"
        )
    }

    /// One family's refresh loop: alternately at each process while both live, then at the
    /// survivor. A request cut off by the kill leaves the family "in doubt": its retry at the
    /// survivor with the same token either rotates (the kill came before the commit) or is a
    /// replay (after it), which revokes the family, as RFC 9700 §4.14.2 asks.
    static func traffic(
        _ family: Int, ledger: Ledger, until end: ContinuousClock.Instant, victim: HTTPTestClient,
        survivor: HTTPTestClient, killed: KillSwitch
    ) async throws {
        var atVictim = family % 2 == 0
        // After `end`, a slow machine keeps going until the survivor has rotated after the kill
        // (what the test is about), for at most 20 more seconds.
        while await Self.keepGoing(until: end, ledger: ledger), await ledger.state(family).live {
            let token = await ledger.state(family).token
            let useVictim = atVictim && !killed.isSet
            atVictim.toggle()
            let response: TestResponse
            do {
                response = try await Self.refresh(token, at: useVictim ? victim : survivor)
            } catch {
                guard useVictim else {
                    await ledger.fail("family \(family): the survivor did not answer: \(error)")
                    return
                }
                await ledger.markInDoubt(family)
                continue
            }
            if response.status == 200, let next = try? Self.refreshToken(response) {
                await ledger.rotated(family, to: next, atVictim: useVictim, afterKill: killed.isSet)
            } else if response.status == 400, await ledger.state(family).inDoubt {
                await ledger.revokedInDoubt(family)
            } else {
                await ledger.fail("family \(family): \(response.status) at the \(useVictim ? "victim" : "survivor"): \(response.text)")
                return
            }
        }
    }

    static func keepGoing(until end: ContinuousClock.Instant, ledger: Ledger) async -> Bool {
        if ContinuousClock.now < end { return true }
        guard ContinuousClock.now < end + .seconds(20) else { return false }
        return await ledger.summary().rotationsAtSurvivorAfterKill == 0
    }

    /// Native sign-in (`/authorize-challenge`) and the code exchange: a refresh token.
    static func signIn(_ client: HTTPTestClient) async throws -> String {
        let pkce = PKCE()
        let started = try await client.postForm(
            "/authorize-challenge",
            [
                "client_id": "kill-app", "scope": "openid offline_access", "code_challenge": pkce.challenge,
                "code_challenge_method": "S256", "username": "alice", "password": "a-long-password-for-kill",
            ])
        try #require(started.status == 200, "sign-in: \(started.status) \(started.text)")
        let code = try #require(
            (try JSONSerialization.jsonObject(with: started.body) as? [String: Any])?["authorization_code"] as? String)
        let tokens = try await client.postForm(
            "/token",
            ["grant_type": "authorization_code", "code": code, "client_id": "kill-app", "code_verifier": pkce.verifier])
        try #require(tokens.status == 200, "code exchange: \(tokens.text)")
        return try refreshToken(tokens)
    }

    static func refresh(_ token: String, at client: HTTPTestClient) async throws -> TestResponse {
        try await client.postForm("/token", ["grant_type": "refresh_token", "refresh_token": token, "client_id": "kill-app"])
    }

    static func refreshToken(_ response: TestResponse) throws -> String {
        try #require((try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["refresh_token"] as? String)
    }
}

/// Set once, when the victim is killed.
final class KillSwitch: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}

/// What the clients know: each family's current token and the counts.
actor Ledger {
    struct Family {
        var token: String
        var live = true
        var inDoubt = false
    }

    struct Summary: Sendable, CustomStringConvertible {
        var rotationsAtVictim = 0
        var rotationsAtSurvivor = 0
        var rotationsAtSurvivorAfterKill = 0
        var inDoubt = 0
        var revokedInDoubt = 0
        var failures: [String] = []
        var description: String {
            "victim \(rotationsAtVictim), survivor \(rotationsAtSurvivor) (\(rotationsAtSurvivorAfterKill) after the kill), in doubt \(inDoubt), revoked in doubt \(revokedInDoubt), failures \(failures.count)"
        }
    }

    private var families: [Family]
    private var counts = Summary()

    init(_ tokens: [String]) { families = tokens.map { Family(token: $0) } }

    func state(_ family: Int) -> Family { families[family] }

    func rotated(_ family: Int, to token: String, atVictim: Bool, afterKill: Bool) {
        families[family].token = token
        families[family].inDoubt = false
        if atVictim {
            counts.rotationsAtVictim += 1
        } else {
            counts.rotationsAtSurvivor += 1
            if afterKill { counts.rotationsAtSurvivorAfterKill += 1 }
        }
    }

    func markInDoubt(_ family: Int) {
        if !families[family].inDoubt { counts.inDoubt += 1 }
        families[family].inDoubt = true
    }

    func revokedInDoubt(_ family: Int) {
        families[family].live = false
        counts.revokedInDoubt += 1
    }

    func fail(_ message: String) { counts.failures.append(message) }

    func summary() -> Summary { counts }
}
