import Benchmark
import Foundation
import SesameProvider
import Synchronization

/// Issue #50's growth rows: the same load against two `sesame serve` processes of one build, one
/// on the fixture's small store and one on a store the ``GrowthGenerator`` filled with
/// 1,000,000 users and 5,000,000 live refresh families, in alternating rounds (as the
/// side-by-side ones). Goal: the grown store within 10% of the small one's rate.
///
/// Run: `swift package benchmark --target ServerBenchmarks --filter "Growth.*"` (SQLite; with
/// `SESAME_BENCH_DATABASE_URL` also PostgreSQL). Filling takes minutes per database.
let smallRate = BenchmarkMetric.custom("small store requests/s", polarity: .prefersLarger, useScalingFactor: false)
let grownRate = BenchmarkMetric.custom("grown store requests/s", polarity: .prefersLarger, useScalingFactor: false)
let grownShare = BenchmarkMetric.custom("grown / small (x100)", polarity: .prefersLarger, useScalingFactor: false)
let smallCPU = BenchmarkMetric.custom("small store CPU per request (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let grownCPU = BenchmarkMetric.custom("grown store CPU per request (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let grownP99 = BenchmarkMetric.custom("grown store p99 (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let scryptAlone = BenchmarkMetric.custom("one scrypt ln=15 alone (µs)", polarity: .prefersSmaller, useScalingFactor: false)

/// The CPU of one password hash at the product's cost (`ScryptPasswordHasher.interactive`:
/// scrypt N = 2^15, r = 8, p = 1, as per sign-in), the median of five in this process.
enum ScryptCost {
    static var interactiveMicroseconds: Int {
        get throws {
            try measured.withLock { cached in
                if let cached { return cached }
                var samples: [Int] = []
                for _ in 0..<5 {
                    let start = ContinuousClock.now
                    _ = try ScryptPasswordHasher.interactive.hash(ServerProcess.password)
                    let elapsed = ContinuousClock.now - start
                    samples.append(Int(elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000))
                }
                let median = samples.sorted()[2]
                cached = median
                return median
            }
        }
    }

    private static let measured = Mutex<Int?>(nil)
}

/// One store's server and what it issued.
struct GrowthSide: Sendable {
    var server: ServerProcess
    var tokenFiles: [URL]
    var sessions: URL?
    var accessToken: String

    static func start(_ database: BenchmarkDatabase, grown: Bool) async throws -> GrowthSide {
        let generator = GrowthGenerator.deployment
        var populate: (@Sendable (URL, String?) async throws -> Void)?
        if grown {
            populate = { @Sendable directory, databaseURL in
                try await generator.fill(dataDirectory: directory, databaseURL: databaseURL)
            }
        }
        let started = try await ServerProcess.start(
            refreshBatches: iterations + 2, familiesPerBatch: connections + 8, database: database,
            extraArguments: Deployment().extraArguments, browserSessions: connections, populate: populate)
        let servers: [ServerProcess] = started.servers
        let files: [[URL]] = started.tokenFiles
        let sessions: URL? = started.sessionCookies
        guard let server = servers.first, let spare = files.last?.first else { throw BenchmarkSetupError("no server") }
        do {
            let accessToken = try await SideBySideFixture.sesameAccessToken(server, tokenFile: spare)
            return GrowthSide(
                server: server, tokenFiles: files.dropLast().compactMap { $0.first }, sessions: sessions, accessToken: accessToken)
        } catch {
            await ServerProcess.stop(servers)
            throw error
        }
    }
}

/// Both stores' servers of one growth benchmark.
final class GrowthFixture: Sendable {
    static let shared = GrowthFixture()

    struct Servers: Sendable {
        var small: GrowthSide
        var grown: GrowthSide
    }

    private let rounds = IteratedServers<Servers>()

    func start(_ database: BenchmarkDatabase) async throws {
        let small = try await GrowthSide.start(database, grown: false)
        do {
            rounds.set(Servers(small: small, grown: try await GrowthSide.start(database, grown: true)))
        } catch {
            await ServerProcess.stop([small.server])
            throw error
        }
    }

    func next() throws -> (Servers, Int) { try rounds.next() }

    func stop() async {
        guard let servers = rounds.take() else { return }
        await ServerProcess.stop([servers.small.server])
        await ServerProcess.stop([servers.grown.server])
    }
}

/// Registers one growth benchmark: `load` gives the Lua script and environment for one side
/// in one round.
private func growthBenchmark(
    _ name: String, database: BenchmarkDatabase, connections: Int = connections, extraMetrics: [BenchmarkMetric] = [],
    after: (@Sendable (Benchmark) throws -> Void)? = nil,
    load: @escaping @Sendable (GrowthSide, Int) throws -> (String, [String: String])
) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [smallRate, grownRate, grownShare, smallCPU, grownCPU, grownP99] + extraMetrics, warmupIterations: 1,
            maxDuration: .seconds(120), maxIterations: iterations,
            setup: { try await GrowthFixture.shared.start(database) },
            teardown: { await GrowthFixture.shared.stop() })
    ) { benchmark in
        let (servers, iteration) = try GrowthFixture.shared.next()
        func run(_ side: GrowthSide) async throws -> (WrkLoad.Result, Int) {
            let (script, environment) = try load(side, iteration)
            return try await round(
                issuer: side.server.issuer, cpuSeconds: { side.server.cpuSeconds }, script: script, environment: environment,
                connections: connections)
        }
        benchmark.startMeasurement()
        let small: (WrkLoad.Result, Int)
        let grown: (WrkLoad.Result, Int)
        if iteration % 2 == 0 {
            small = try await run(servers.small)
            grown = try await run(servers.grown)
        } else {
            grown = try await run(servers.grown)
            small = try await run(servers.small)
        }
        benchmark.stopMeasurement()
        benchmark.measurement(smallRate, Int(small.0.requestsPerSecond))
        benchmark.measurement(grownRate, Int(grown.0.requestsPerSecond))
        benchmark.measurement(grownShare, Int((100 * grown.0.requestsPerSecond / small.0.requestsPerSecond).rounded()))
        benchmark.measurement(smallCPU, small.1)
        benchmark.measurement(grownCPU, grown.1)
        benchmark.measurement(grownP99, grown.0.p99.microseconds)
        try after?(benchmark)
    }
}

func registerGrowthBenchmarks() {
    for database in [BenchmarkDatabase.sqlite] + (BenchmarkDatabase.serverURL == nil ? [] : [.postgres]) {
        let name = database == .sqlite ? "SQLite" : "PostgreSQL"
        let suffix = "1,000,000 users and 5,000,000 families vs an empty store (\(name), 32 connections)"
        growthBenchmark("Growth: refresh_token grant, \(suffix)", database: database) { side, iteration in
            guard iteration < side.tokenFiles.count else { throw BenchmarkSetupError("out of tokens") }
            return (
                WrkScripts.refresh(clientID: ServerProcess.refreshClientID), ["SESAME_TOKENS": side.tokenFiles[iteration].path]
            )
        }
        growthBenchmark("Growth: userinfo, \(suffix)", database: database) { side, _ in
            (WrkScripts.userinfo(path: "/userinfo", accessToken: side.accessToken), [:])
        }
        let pkce = SideBySideFixture.shared.pkce
        // The user is looked up by name among a million; the scrypt (the product's ln=15) is
        // most of the CPU, so its own cost is reported beside the rates to read the rest. Two
        // connections: one account's password checks in flight count against its lockout
        // (LoginThrottle: five), a round's last checks may still be in flight when the next
        // round starts, and two cores hash two at a time anyway.
        growthBenchmark(
            "Growth: password sign-in (/authorize-challenge), \(suffix.replacingOccurrences(of: "32 connections", with: "2 connections"))",
            database: database, connections: 2, extraMetrics: [scryptAlone],
            after: { benchmark in benchmark.measurement(scryptAlone, try ScryptCost.interactiveMicroseconds) }
        ) { _, _ in
            (
                WrkScripts.passwordSignIn(
                    clientID: ServerProcess.firstPartyClientID, username: ServerProcess.username,
                    password: ServerProcess.password, pkce: pkce), [:]
            )
        }
        growthBenchmark("Growth: browser SSO sign-in, \(suffix)", database: database) { side, _ in
            guard let sessions = side.sessions else { throw BenchmarkSetupError("no sessions") }
            return (
                WrkScripts.browserSSO(clientID: ServerProcess.refreshClientID, pkce: pkce), ["SESAME_SESSIONS": sessions.path]
            )
        }
    }
}
