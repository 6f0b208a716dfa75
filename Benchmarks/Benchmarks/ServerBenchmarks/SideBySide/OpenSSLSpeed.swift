import Foundation

/// The machine's signing bound as OpenSSL measures it: `openssl speed -multi <cores> rsa2048`
/// (and `ecdsap256`), the fastest implementations on the machine (issue #31: a bound is the
/// machine's, not one library's). RS256 is RSASSA-PKCS1-v1_5 over a 2048-bit key, what
/// `openssl speed`'s `rsa2048` signs; ES256 is ECDSA over P-256, its `ecdsap256`.
enum OpenSSLSpeed {
    /// 2048-bit RSA signatures per second on every core, over `seconds` seconds.
    static func rsa2048SignaturesPerSecond(seconds: Int = 1) async throws -> Double {
        try await signaturesPerSecond("rsa2048", line: "rsa 2048 bits", seconds: seconds)
    }

    /// ECDSA P-256 signatures per second on every core, over `seconds` seconds.
    static func ecdsaP256SignaturesPerSecond(seconds: Int = 1) async throws -> Double {
        try await signaturesPerSecond("ecdsap256", line: "256 bits ecdsa (nistp256)", seconds: seconds)
    }

    private static func signaturesPerSecond(_ algorithm: String, line: String, seconds: Int) async throws -> Double {
        let openssl = try Executables.find("openssl", package: "openssl")
        let python = try Executables.find("python3", package: "python3")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // openssl speed times itself with SIGALRM; the benchmark runner may have that signal
        // blocked, and a child inherits the mask (openssl would then never stop). Python
        // unblocks it and restores the default handler before it becomes openssl.
        let arguments = ["openssl", "speed", "-seconds", "\(seconds)", "-multi", "\(cores)", algorithm]
        let list = arguments.map { "'\($0)'" }.joined(separator: ", ")
        let output = try await ChildRun.run(
            python,
            [
                "-c",
                "import os, signal; signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM]); "
                    + "signal.signal(signal.SIGALRM, signal.SIG_DFL); os.execv('\(openssl.path)', [\(list)])",
            ])
        guard let value = parse(output, line: line) else { throw BenchmarkSetupError("openssl speed: no '\(line)' line in\n\(output)") }
        return value
    }

    /// The `sign/s` column of a summary line: `rsa 2048 bits 0.000418s 0.000012s 2390.0 82772.3`,
    /// ` 256 bits ecdsa (nistp256)   0.0000s   0.0001s  48909.0  13845.0`.
    static func parse(_ output: String, line prefix: String = "rsa 2048 bits") -> Double? {
        guard
            let line = output.split(separator: "\n").last(where: {
                $0.drop(while: { $0 == " " }).hasPrefix(prefix)
            })
        else { return nil }
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        guard numbers.count >= 3 else { return nil }
        return numbers[numbers.count - 2]
    }
}
