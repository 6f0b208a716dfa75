import Benchmark
import Foundation
import Synchronization

/// Issue #2 targets: the refresh grant reaches ≥ 80% of the bound set by signing alone
/// (RS256 signatures per second on all cores, divided by the 2 signatures a refresh needs:
/// access token + ID token), with p99 < 50 ms, 32 concurrent connections, on-disk SQLite.
///
/// Set-up: the release `sesame serve` in its own process (``ServerProcess``), the load from
/// `wrk` in a third process (``WrkLoad``), the bound measured in the same run on every core
/// while the server idles (``SigningBound``). One iteration = one wrk run of `seconds`.
/// Custom metrics per iteration: requests/s, p50 and p99 latency (µs), server CPU per request
/// (µs), and for the refresh grant the bound and the percentage of it reached.
let connections = 32
let seconds = 3
let iterations = 6
let signaturesPerRefresh = 2.0

let requestsPerSecond = BenchmarkMetric.custom("requests/s", polarity: .prefersLarger, useScalingFactor: false)
let p50Latency = BenchmarkMetric.custom("p50 latency (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let p99Latency = BenchmarkMetric.custom("p99 latency (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let serverCPU = BenchmarkMetric.custom("server CPU per request (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let signaturesPerSecond = BenchmarkMetric.custom("RS256 signatures/s (all cores)", polarity: .prefersLarger, useScalingFactor: false)
let boundMetric = BenchmarkMetric.custom("signing bound (refreshes/s)", polarity: .prefersLarger, useScalingFactor: false)
let percentOfBound = BenchmarkMetric.custom("% of signing bound", polarity: .prefersLarger, useScalingFactor: false)

/// The server of this benchmark process (each benchmark runs in a process of its own).
final class Fixture: Sendable {
    static let shared = Fixture()
    private let state = Mutex<(server: ServerProcess?, tokenFiles: [URL], next: Int)>((nil, [], 0))

    func start(refreshBatches: Int = 0) async throws {
        let (server, files) = try await ServerProcess.start(
            refreshBatches: refreshBatches, familiesPerBatch: connections + 8)
        state.withLock { $0 = (server, files, 0) }
    }

    var server: ServerProcess {
        get throws {
            guard let server = state.withLock({ $0.server }) else { throw BenchmarkSetupError("no server") }
            return server
        }
    }

    /// A file of refresh tokens no earlier iteration has used.
    func nextTokenFile() throws -> URL {
        try state.withLock { state in
            guard state.next < state.tokenFiles.count else { throw BenchmarkSetupError("out of refresh tokens") }
            defer { state.next += 1 }
            return state.tokenFiles[state.next]
        }
    }

    func stop() async {
        let server = state.withLock { state in
            defer { state.server = nil }
            return state.server
        }
        await server?.stop()
    }
}

/// Runs one wrk iteration and records the common metrics; returns the result for more.
func measureLoad(
    _ benchmark: Benchmark, script: (ServerProcess) throws -> (String, [String: String])
) async throws -> WrkLoad.Result {
    let server = try Fixture.shared.server
    let (lua, environment) = try script(server)
    let load = WrkLoad(issuer: server.issuer, connections: connections, duration: seconds)
    let cpuBefore = server.cpuSeconds
    benchmark.startMeasurement()
    let result = try await load.run(script: lua, environment: environment)
    benchmark.stopMeasurement()
    let cpu = server.cpuSeconds - cpuBefore
    guard result.non2xx == 0, result.socketErrors == 0, result.requests > 0 else {
        throw BenchmarkSetupError("\(result.non2xx) error responses, \(result.socketErrors) socket errors")
    }
    benchmark.measurement(requestsPerSecond, Int(result.requestsPerSecond))
    benchmark.measurement(p50Latency, result.p50.microseconds)
    benchmark.measurement(p99Latency, result.p99.microseconds)
    benchmark.measurement(serverCPU, Int(cpu * 1e6 / Double(result.requests)))
    return result
}

let loadMetrics: [BenchmarkMetric] = [requestsPerSecond, p50Latency, p99Latency, serverCPU]

func loadConfiguration(
    metrics: [BenchmarkMetric] = loadMetrics, refreshBatches: Int = 0
) -> Benchmark.Configuration {
    .init(
        metrics: metrics, warmupIterations: 1, maxDuration: .seconds(60), maxIterations: iterations,
        setup: { try await Fixture.shared.start(refreshBatches: refreshBatches) },
        teardown: { await Fixture.shared.stop() })
}

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "RS256 signing bound (all cores, threads)",
        configuration: .init(metrics: [signaturesPerSecond], warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 8)
    ) { benchmark in
        benchmark.measurement(signaturesPerSecond, Int(try await SigningBound.signaturesPerSecond()))
    }

    Benchmark(
        "Token endpoint: refresh_token grant (32 connections)",
        configuration: loadConfiguration(
            metrics: loadMetrics + [boundMetric, percentOfBound], refreshBatches: iterations + 1)
    ) { benchmark in
        // The bound of this iteration, measured in the same run while the server idles: just
        // before and just after the load, averaged, because this VM's speed drifts over seconds.
        let before = try await SigningBound.signaturesPerSecond(signaturesPerThread: 500)
        let file = try Fixture.shared.nextTokenFile()
        let result = try await measureLoad(benchmark) { _ in
            (WrkScripts.refresh(clientID: ServerProcess.refreshClientID), ["SESAME_TOKENS": file.path])
        }
        let after = try await SigningBound.signaturesPerSecond(signaturesPerThread: 500)
        let bound = (before + after) / 2 / signaturesPerRefresh
        benchmark.measurement(boundMetric, Int(bound))
        benchmark.measurement(percentOfBound, Int((100 * result.requestsPerSecond / bound).rounded()))
    }

    Benchmark("Token endpoint: client_credentials grant (32 connections)", configuration: loadConfiguration()) { benchmark in
        _ = try await measureLoad(benchmark) { server in
            (WrkScripts.clientCredentials(clientID: ServerProcess.confidentialClientID, secret: server.clientSecret), [:])
        }
    }

    Benchmark("Discovery document (32 connections)", configuration: loadConfiguration()) { benchmark in
        _ = try await measureLoad(benchmark) { _ in (WrkScripts.discovery, [:]) }
    }

    registerStoreBenchmarks()
}
