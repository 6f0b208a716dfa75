import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK answers the server's abuse challenges (docs/abuse-protection.md) without the app
/// doing anything: it solves the proof of work on all cores, sends the request once more, and
/// reports the work on its events stream; a challenge above the configured ceiling is a typed
/// error before any work.
@Suite("The SDK solves challenges")
struct ChallengeSolvingTests {
    @Test("a native sign-in that meets a 14-bit proof of work signs in; the events say started, solved, then signedIn")
    func nativeSignIn() async throws {
        try await withServer(configure: {
            $0.challenges = ChallengePolicy(modes: [.signIn: .always], baseDifficulty: 14)
        }) { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            let events = client.events()
            let account = try await passwordLogin(client, user)
            #expect(account.subject == user.sub)
            var seen: [String] = []
            for await event in events {
                switch event {
                case .challenge(.started(let kind, let difficulty)): seen.append("started \(kind.rawValue) \(difficulty)")
                case .challenge(.solved(let difficulty, _)): seen.append("solved \(difficulty)")
                case .challenge(.progress): continue
                case .signedIn: seen.append("signedIn")
                default: seen.append("other")
                }
                if seen.last == "signedIn" { break }
            }
            #expect(seen == ["started proof_of_work 14", "solved 14", "signedIn"])
            await server.running.flushAuditLog()
            let log = server.running.store
            let decisions = try await log.auditRecords(AuditQuery(events: ["challenge."])).map(\.event)
            #expect(decisions == ["challenge.issued", "challenge.solved"])
        }
    }

    @Test("sign-up and password reset with a clear pass go through the SDK unchanged")
    func clearPassForAccounts() async throws {
        try await withServer(configure: {
            $0.challenges = ChallengePolicy(modes: [.signUp: .always, .passwordReset: .always], kind: .clearPass)
        }) { server in
            let client = server.sdk()
            let created = try await client.account.signUp(email: "newcomer@example.com", password: "a long sign-up password")
            #expect(created.email == "newcomer@example.com")
            try await client.account.requestPasswordReset(email: "newcomer@example.com")
            let messages = try await server.outbox.messages(to: "newcomer@example.com", purpose: nil)
            #expect(messages.map(\.purpose) == ["email_verification", "password_reset"])
        }
    }

    @Test("a challenge above the app's ceiling is challengeTooHard, without work and without a second request")
    func ceiling() async throws {
        try await withServer(configure: {
            $0.challenges = ChallengePolicy(modes: [.signIn: .always], baseDifficulty: 30, maximumDifficulty: 30)
        }) { server in
            let user = try await server.addUser("grace")
            var configuration = server.configuration()
            configuration.maximumChallengeDifficulty = 16
            let transport = CountingTransport()
            let client = SesameClient(
                configuration: configuration, store: InMemoryCredentialStore(), transport: transport,
                clock: SystemClock(), logger: Logger(label: "sesame.it.challenge"), retryPolicy: .none)
            let error = await #expect(throws: SesameError.self) {
                _ = try await client.login(username: user.username, password: user.password)
            }
            guard case .challengeTooHard(let difficulty, let ceiling) = error?.reason else {
                Issue.record("expected challengeTooHard, got \(String(describing: error))")
                return
            }
            #expect(difficulty == 30 && ceiling == 16)
            #expect(transport.challengeRequests == 1, "the challenged request is not sent again")
        }
    }

    @Test("the solver finds a valid nonce on several tasks, and stops when its task is cancelled")
    func solverCancels() async throws {
        let seed = Base64URL.encode((0..<56).map { UInt8($0) })
        let easy = ProofOfWorkChallenge(kind: .proofOfWork, token: "t", seed: seed, difficulty: 12, expiresAt: 0)
        let solution = try await ProofOfWorkSolver(parallelism: 3).solve(easy)
        #expect(ProofOfWork.isSolution(seed: (0..<56).map { UInt8($0) }, nonce: solution.nonce, difficulty: 12))
        #expect(solution.token == "t")

        let impossible = ProofOfWorkChallenge(kind: .proofOfWork, token: "t", seed: seed, difficulty: 40, expiresAt: 0)
        let task = Task { try await ProofOfWorkSolver(parallelism: 2).solve(impossible) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }
}

/// Real HTTP that counts the requests sent to `/authorize-challenge`.
final class CountingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private let count = Mutex(0)

    var challengeRequests: Int { count.withLock { $0 } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if request.url?.path == "/authorize-challenge" { count.withLock { $0 += 1 } }
        return try await inner.send(request)
    }
}
