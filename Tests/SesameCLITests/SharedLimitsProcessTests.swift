import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing

/// Two real `sesame serve` processes on one PostgreSQL database share the request rate limits and
/// the abuse challenges: a sign-up limit counts requests made at either process, and a challenge
/// issued by one process and solved is accepted by the other, once. The discovery limit is shared
/// too, although most discovery requests are answered on the event loop and counted in memory
/// (``StaticDocumentResponder``).
@Suite(
    "Rate limits and challenges across two sesame serve processes (PostgreSQL)",
    .enabled(if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired, "no PostgreSQL here; CI runs this"))
struct SharedLimitsProcessTests {
    @Test("a sign-up limit of 3 per address counts sign-ups at both processes; a challenge from one is redeemed at the other once")
    func sharedAcrossProcesses() async throws {
        let sandbox = try await StoreSandbox.make(.postgres)
        let temp = try TempDirectory("shared-limits")
        defer { temp.remove() }
        let seed = temp.url.appendingPathComponent("seed.yaml")
        try Data(
            """
            clients:
              - client_id: shared-app
                redirect_uris: [com.example.shared:/cb]
                token_endpoint_auth_method: none
                first_party: true
            users:
              - username: alice
                email: alice@example.com
                password: a-long-password-for-sharing
                email_verified: true
            """.utf8
        ).write(to: seed)
        let arguments = [
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--config", seed.path, "--log-level", "error",
            "--rate-limit", "account_creation=3/3600", "--challenge", "sign_up=off", "--challenge", "sign_in=always",
            "--challenge-difficulty", "8",
        ]
        try await TwoServeProcesses.run(arguments, on: sandbox) { clients in
            // Sign-ups alternate between the processes, more than two sharing intervals apart
            // (each process adds its counts and learns the others' once a second, so a limit
            // can be overshot by what the others admitted since their last sharing).
            try await Self.awayFromWindowEdge(length: 3600)
            var statuses: [Int] = []
            for index in 0..<4 {
                let body = try JSONSerialization.data(withJSONObject: [
                    "client_id": "shared-app", "email": "shared\(index)@example.com", "password": "a long sign-up password",
                ])
                let response = try await clients[index % 2].post(
                    "/api/signup", body: body, headers: ["Content-Type": "application/json"])
                statuses.append(response.status)
                if response.status == 429 { #expect(try response.json(APIError.self).code == .rateLimited) }
                try await Task.sleep(for: .milliseconds(2200))
            }
            #expect(statuses == [201, 201, 201, 429], "\(statuses)")

            // A challenge issued by the first process, solved, redeemed at the second; a replay
            // at the first is refused as reused.
            let pkce = PKCE()
            let form = [
                "client_id": "shared-app", "scope": "openid", "code_challenge": pkce.challenge,
                "code_challenge_method": "S256", "username": "alice", "password": "a-long-password-for-sharing",
            ]
            let challenged = try await clients[0].postForm("/authorize-challenge", form)
            #expect(challenged.status == 429)
            let challenge = try #require(try challenged.json(APIError.self).challenge)
            let seedBytes = try #require(challenge.seedBytes)
            var nonce: UInt64 = 0
            while !ProofOfWork.isSolution(seed: seedBytes, nonce: nonce, difficulty: challenge.difficulty) { nonce += 1 }
            let header = [ProofOfWorkSolution.headerName: ProofOfWorkSolution(token: challenge.token, nonce: nonce).headerValue]
            let accepted = try await clients[1].postForm("/authorize-challenge", form, headers: header)
            #expect(accepted.status == 200, "\(accepted.text)")
            let replay = try await clients[0].postForm("/authorize-challenge", form, headers: header)
            #expect(try replay.json(APIError.self).code == .invalidChallengeSolution)
            #expect(try replay.json(APIError.self).errorDescription?.contains("reused") == true)
        }
        await sandbox.dispose()
    }

    @Test("a discovery limit of 3 per address counts the documents read at both processes: 200, 200, 200, then 429")
    func discoveryLimitShared() async throws {
        let sandbox = try await StoreSandbox.make(.postgres)
        let temp = try TempDirectory("shared-discovery")
        defer { temp.remove() }
        let arguments = [
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--log-level", "error",
            "--rate-limit", "discovery=3/3600",
        ]
        try await TwoServeProcesses.run(arguments, on: sandbox) { clients in
            // Alternating processes, more than two sharing intervals apart; the first
            // process's second answer (the third request) is one it gives on the event loop,
            // from the count it learned of the other process.
            try await Self.awayFromWindowEdge(length: 3600)
            var statuses: [Int] = []
            var remaining: [String] = []
            for index in 0..<5 {
                let path = index % 2 == 0 ? "/.well-known/openid-configuration" : "/.well-known/oauth-authorization-server"
                let response = try await clients[index % 2].get(path)
                statuses.append(response.status)
                remaining.append(response.header("RateLimit") ?? "")
                try await Task.sleep(for: .milliseconds(2200))
            }
            #expect(statuses == [200, 200, 200, 429, 429], "\(statuses)")
            let left: [String] = remaining.map { header in
                header.split(separator: ";").dropFirst().first.map(String.init) ?? ""
            }
            #expect(left == ["r=2", "r=1", "r=0", "r=0", "r=0"], "\(remaining)")
        }
        await sandbox.dispose()
    }

    /// The limiter's windows are aligned: a window of `length` seconds starts at a multiple of
    /// `length` since 1970 (`RateLimiter.windowStart`), so an hourly limit resets on the hour for
    /// every address at once. A test whose requests straddle that moment sees a fresh window
    /// halfway (a CI run of 2026-12-03 crossed 20:00 in both tests above). When fewer than
    /// `margin` seconds are left in the current window, this waits until the next one begins.
    static func awayFromWindowEdge(length: TimeInterval, margin: TimeInterval = 60) async throws {
        let now = Date().timeIntervalSince1970
        let left = length - now.truncatingRemainder(dividingBy: length)
        if left < margin { try await Task.sleep(for: .seconds(left + 1)) }
    }
}
