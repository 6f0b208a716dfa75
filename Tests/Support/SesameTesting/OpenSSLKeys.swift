import Foundation
import SesameProvider
import TestSupport

/// The test servers' RSA signing keys, from `openssl genpkey` (Debian's OpenSSL, built
/// optimized, about 0.1 s of CPU a key): a debug build compiles BoringSSL without optimization,
/// and its prime search for each of the suite's hundreds of servers was a fifth of the CPU in a
/// `perf` sample of the suite (docs/testing.md). Each key is new, so no two servers share one.
/// Without `/usr/bin/openssl`, swift-crypto's.
enum OpenSSLKeys {
    static let rsa = RSAKeySource {
        guard ToolRun.available("openssl") else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-rsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await ToolRun.run(
            "openssl", ["genpkey", "-quiet", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], in: directory)
        guard run.status == 0, run.output.contains("-----BEGIN PRIVATE KEY-----") else {
            throw ToolFailure("openssl genpkey: \(run.error)")
        }
        return run.output
    }
}
