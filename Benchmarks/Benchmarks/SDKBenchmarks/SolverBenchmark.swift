import Benchmark
import Foundation
import Sesame
import SesameProtocol
import Synchronization

/// Issue #21 target: the SDK's proof-of-work solver on all cores ≥ 0.8× the SHA-256 rate of
/// `openssl speed -multi <cores> -bytes 64 sha256` (the fastest implementation here, on the same
/// 64-byte inputs the solver hashes), both measured in the same iteration.
let solverHashesPerSecond = BenchmarkMetric.custom("solver hashes/s", polarity: .prefersLarger, useScalingFactor: false)
let opensslHashesPerSecond = BenchmarkMetric.custom("openssl hashes/s", polarity: .prefersLarger, useScalingFactor: false)
let percentOfOpenSSL = BenchmarkMetric.custom("% of openssl rate", polarity: .prefersLarger, useScalingFactor: false)

enum SolverBenchmark {
    static let measuredSeconds = 3

    /// Runs the public solver on an unsolvable (40-bit) challenge for `measuredSeconds`, then
    /// cancels it; the hashes it reported over the time it ran.
    static func solverRate() async throws -> Double {
        let seed = Base64URL.encode((0..<ProofOfWork.seedLength).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let challenge = ProofOfWorkChallenge(kind: .proofOfWork, token: "bench", seed: seed, difficulty: 40, expiresAt: 0)
        let total = Mutex(0)
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task {
            try await ProofOfWorkSolver().solve(challenge) { hashes in total.withLock { $0 = max($0, hashes) } }
        }
        try await Task.sleep(for: .seconds(measuredSeconds))
        let elapsed = clock.now - start
        let hashes = total.withLock { $0 }
        task.cancel()
        _ = await task.result
        return Double(hashes) / seconds(elapsed)
    }

    /// `openssl speed -seconds N -multi <cores> -bytes 64 sha256`: its "k" column is thousands
    /// of bytes per second over all processes.
    static func opensslRate() throws -> Double {
        // openssl speed times itself with SIGALRM; the benchmark process may have that signal
        // blocked, and a child inherits the mask (then openssl never stops). Python resets the
        // mask and the handler before it becomes openssl.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import os, signal; signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM]); signal.signal(signal.SIGALRM, signal.SIG_DFL); os.execv('/usr/bin/openssl', ['openssl', 'speed', '-seconds', '\(measuredSeconds)', '-multi', '\(ProcessInfo.processInfo.activeProcessorCount)', '-bytes', '64', 'sha256'])",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("sha256") }),
            let field = line.split(separator: " ").last, field.hasSuffix("k"), let kilobytes = Double(field.dropLast())
        else { throw BenchmarkFailure("no sha256 line in openssl's output: \(text)") }
        return kilobytes * 1000 / 64
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let solverBenchmarks: @Sendable () -> Void = {
    Benchmark(
        "Proof-of-work solver: SHA-256 on all cores vs openssl speed -multi (64 B)",
        configuration: .init(
            metrics: [solverHashesPerSecond, opensslHashesPerSecond, percentOfOpenSSL], warmupIterations: 0,
            maxDuration: .seconds(60), maxIterations: 3)
    ) { benchmark in
        let solver = try await SolverBenchmark.solverRate()
        let openssl = try SolverBenchmark.opensslRate()
        benchmark.measurement(solverHashesPerSecond, Int(solver))
        benchmark.measurement(opensslHashesPerSecond, Int(openssl))
        benchmark.measurement(percentOfOpenSSL, Int(100 * solver / openssl))
        FileHandle.standardError.write(
            Data("solver \(Int(solver)) hashes/s, openssl \(Int(openssl)) hashes/s, \(String(format: "%.1f", 100 * solver / openssl)) %\n".utf8))
    }
}
