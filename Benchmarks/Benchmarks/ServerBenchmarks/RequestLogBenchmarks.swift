import Benchmark
import Foundation
import Synchronization

/// Issue #50's first goal as it states it: the request log at the default level (`info`, one line
/// per request, written to a file as a deployment's log is) costs ≤ 10% of a discovery request's
/// CPU.
///
/// Two servers on one data directory, one at `--log-level info` and one at `--log-level error`
/// (no line per request). Each iteration loads them with the same `wrk` in four 2-second
/// windows, A B B A (B A A B in the next iteration), so that a drift of this VM's speed over
/// the iteration falls on both alike. The CPU per request is reported in nanoseconds: the µs
/// metric of the other rows cannot tell 14 µs from 15.4 µs, and the log's share lies in that
/// difference. /proc counts CPU in 10 ms ticks, about 0.4% of a level's CPU in an iteration.
let logCPUAtInfo = BenchmarkMetric.custom("server CPU per request, info (ns)", polarity: .prefersSmaller, useScalingFactor: false)
let logCPUAtError = BenchmarkMetric.custom(
    "server CPU per request, error (ns)", polarity: .prefersSmaller, useScalingFactor: false)
let logShare = BenchmarkMetric.custom(
    "request log's share of CPU at info (per mille)", polarity: .prefersSmaller, useScalingFactor: false)
let requestsAtInfo = BenchmarkMetric.custom("requests/s, info", polarity: .prefersLarger, useScalingFactor: false)
let requestsAtError = BenchmarkMetric.custom("requests/s, error", polarity: .prefersLarger, useScalingFactor: false)

func registerRequestLogBenchmarks() {
    let deployment = Deployment(processes: 2, processArguments: [["--log-level", "info"], ["--log-level", "error"]])
    var configuration = loadConfiguration(
        deployment, metrics: [logCPUAtInfo, logCPUAtError, logShare, requestsAtInfo, requestsAtError])
    // Eight seconds of load an iteration, seven iterations with the warm-up.
    configuration.maxDuration = .seconds(120)
    // Whole numbers: the table would print 19,400 ns as "19 (K)".
    configuration.units = [logCPUAtInfo: .count, logCPUAtError: .count, requestsAtInfo: .count, requestsAtError: .count]
    Benchmark(
        "Request log: discovery at info against error (32 connections, alternating)", configuration: configuration
    ) { benchmark in
        let servers = try Fixture.shared.servers
        let (atInfo, atError) = (servers[0], servers[1])
        let infoFirst = requestLogTurn.withLock { turn in
            defer { turn += 1 }
            return turn % 2 == 0
        }
        /// The server's CPU (s), requests and seconds under one wrk run.
        func load(_ server: ServerProcess) async throws -> (cpu: Double, requests: Int, seconds: Double) {
            let before = server.cpuSeconds
            let result = try await WrkLoad(issuer: server.issuer, connections: connections, duration: 2)
                .run(script: WrkScripts.discovery)
            let cpu = server.cpuSeconds - before
            guard result.non2xx == 0, result.socketErrors == 0, result.requests > 0 else {
                throw BenchmarkSetupError("\(result.non2xx) error responses, \(result.socketErrors) socket errors")
            }
            return (cpu, result.requests, result.seconds)
        }
        var totals = [(cpu: 0.0, requests: 0, seconds: 0.0), (cpu: 0.0, requests: 0, seconds: 0.0)]
        benchmark.startMeasurement()
        for index in infoFirst ? [0, 1, 1, 0] : [1, 0, 0, 1] {
            let window = try await load(index == 0 ? atInfo : atError)
            totals[index].cpu += window.cpu
            totals[index].requests += window.requests
            totals[index].seconds += window.seconds
        }
        benchmark.stopMeasurement()
        let (info, error) = (totals[0], totals[1])
        let infoNanoseconds = info.cpu * 1e9 / Double(info.requests)
        let errorNanoseconds = error.cpu * 1e9 / Double(error.requests)
        benchmark.measurement(logCPUAtInfo, Int(infoNanoseconds.rounded()))
        benchmark.measurement(logCPUAtError, Int(errorNanoseconds.rounded()))
        // Below zero (the log cheaper than no log: noise) the histogram cannot hold it: 0.
        benchmark.measurement(logShare, max(0, Int((1000 * (infoNanoseconds - errorNanoseconds) / infoNanoseconds).rounded())))
        benchmark.measurement(requestsAtInfo, Int(Double(info.requests) / info.seconds))
        benchmark.measurement(requestsAtError, Int(Double(error.requests) / error.seconds))
    }
}

/// Which server of the request-log benchmark goes first in the next iteration.
let requestLogTurn = Mutex(0)
