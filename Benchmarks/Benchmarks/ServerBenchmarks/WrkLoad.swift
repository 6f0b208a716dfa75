import Foundation

/// The load generator: `wrk` (Debian package `wrk`) in its own process, one thread, a fixed
/// number of keep-alive HTTP/1.1 connections in a closed loop, requests shaped by a Lua script
/// (``WrkScripts``). Latency is measured by wrk per request, from write to complete response.
struct WrkLoad: Sendable {
    let issuer: String
    let connections: Int
    let duration: Int

    struct Result: Sendable {
        var requests: Int
        var seconds: Double
        var non2xx: Int
        var socketErrors: Int
        var p50: Duration
        var p99: Duration

        var requestsPerSecond: Double { Double(requests) / seconds }
    }

    /// Runs `script` (Lua source) with `environment` and parses the summary line its `done`
    /// callback prints (``WrkScripts/summary``).
    func run(script: String, environment: [String: String] = [:]) async throws -> Result {
        let scriptFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-wrk-\(UUID().uuidString).lua")
        try Data(script.utf8).write(to: scriptFile)
        defer { try? FileManager.default.removeItem(at: scriptFile) }

        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = [
            "-t1", "-c\(connections)", "-d\(duration)s", "--timeout", "10s", "-s", scriptFile.path, issuer,
        ]
        process.environment = ChildEnvironment.withoutBenchmarkHooks().merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let once = ResumeOnce()
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                once.run { continuation.resume(returning: finished.terminationStatus) }
            }
            do { try process.run() } catch { once.run { continuation.resume(throwing: error) } }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0, let result = Self.parse(text) else {
            throw BenchmarkSetupError("wrk failed (status \(status)):\n\(text)")
        }
        return result
    }

    /// `SESAME requests=… duration_us=… non2xx=… socket_errors=… p50_us=… p99_us=…`
    static func parse(_ text: String) -> Result? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SESAME ") }) else { return nil }
        var fields: [String: Int] = [:]
        for pair in line.dropFirst("SESAME ".count).split(separator: " ") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let requests = fields["requests"], let micros = fields["duration_us"], micros > 0,
            let p50 = fields["p50_us"], let p99 = fields["p99_us"]
        else { return nil }
        return Result(
            requests: requests, seconds: Double(micros) / 1e6, non2xx: fields["non2xx"] ?? 0,
            socketErrors: fields["socket_errors"] ?? 0, p50: .microseconds(p50), p99: .microseconds(p99))
    }

    private static func executable() throws -> URL {
        try Executables.find("wrk", package: "wrk")
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    var microseconds: Int { Int(seconds * 1e6) }
}
