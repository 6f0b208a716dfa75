import Benchmark
import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer
import Synchronization

/// Issue #18: what joining a sibling app's session costs. Each iteration times 50 single
/// sign-ons (`signIn(withSSO:)`: the token exchange with its §4.3 checks, the server's two
/// signatures, the SDK's ID token validation and store writes) against 50 forced refreshes of
/// the same app (one rotation, two signatures, one validation) on the same in-process server:
/// the baseline every sign-in path pays.
let ssoMicroseconds = BenchmarkMetric.custom("SSO sign-in µs", polarity: .prefersSmaller, useScalingFactor: false)
let refreshMicroseconds = BenchmarkMetric.custom("refresh µs", polarity: .prefersSmaller, useScalingFactor: false)

final class SSOFixture: Sendable {
    let running: RunningServer
    let group = InMemoryCredentialStore()
    let account: SSOAccount
    let first: SesameClient

    static func start() async throws -> SSOFixture {
        let (running, admin) = try await BenchServer.start("sso")
        for app in ["sso-a", "sso-b"] {
            _ = try await admin.addClient(
                ClientSpec(clientID: app, redirectURIs: ["com.example.sso:/cb"], firstParty: true, appGroup: "bench"))
        }
        _ = try await admin.addUser(username: "sso", email: "sso@example.com", password: "correct horse battery")
        let fixture = try await SSOFixture(running: running)
        return fixture
    }

    private init(running: RunningServer) async throws {
        self.running = running
        first = Self.app("sso-a", running: running, group: group)
        guard case .signedIn = try await first.login(username: "sso", password: "correct horse battery") else {
            throw BenchmarkFailure("the benchmark user needs no second factor")
        }
        guard let offered = await first.sso.accounts().first else { throw BenchmarkFailure("nothing was shared") }
        account = offered
    }

    static func app(_ id: String, running: RunningServer, group: InMemoryCredentialStore) -> SesameClient {
        SesameClient(
            configuration: SesameConfiguration(issuer: running.issuer, clientID: id, redirectURI: URL(string: "com.example.sso:/cb")!),
            store: InMemoryCredentialStore(), logger: BenchServer.quietLogger, ssoGroup: group)
    }
}

let ssoFixture = Mutex<SSOFixture?>(nil)

let ssoBenchmarks: @Sendable () -> Void = {
    Benchmark(
        "Native SSO: 50 sibling sign-ins (token exchange) vs 50 refreshes, same server",
        configuration: .init(metrics: [ssoMicroseconds, refreshMicroseconds], warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 10)
    ) { benchmark in
        let fixture: SSOFixture
        if let existing = ssoFixture.withLock({ $0 }) {
            fixture = existing
        } else {
            fixture = try await SSOFixture.start()
            ssoFixture.withLock { $0 = fixture }
        }
        let rounds = 50
        let clock = ContinuousClock()
        let refreshStart = clock.now
        for _ in 0..<rounds { blackHole(try await fixture.first.validAccessToken(forceRefresh: true)) }
        let refresh = clock.now - refreshStart
        let sibling = SSOFixture.app("sso-b", running: fixture.running, group: fixture.group)
        let ssoStart = clock.now
        for _ in 0..<rounds { blackHole(try await sibling.sso.signIn(with: fixture.account)) }
        let sso = clock.now - ssoStart
        let ssoEach = seconds(sso) / Double(rounds) * 1_000_000
        let refreshEach = seconds(refresh) / Double(rounds) * 1_000_000
        benchmark.measurement(ssoMicroseconds, Int(ssoEach))
        benchmark.measurement(refreshMicroseconds, Int(refreshEach))
        FileHandle.standardError.write(
            Data("SSO sign-in \(Int(ssoEach)) µs, refresh \(Int(refreshEach)) µs (\(String(format: "%.2f", ssoEach / refreshEach))×)\n".utf8))
    }
}
