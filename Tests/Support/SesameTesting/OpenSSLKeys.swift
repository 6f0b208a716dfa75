import Foundation
import SesameProvider
import Synchronization
import TestSupport

/// The test servers' RSA signing keys, from `openssl genpkey` (Debian's OpenSSL, built
/// optimized, 0.06–0.45 s of CPU a key): a debug build compiles BoringSSL without optimization,
/// and its prime search for each of the suite's hundreds of servers was a fifth of the CPU in a
/// `perf` sample of the suite (docs/testing.md). Without `/usr/bin/openssl`, swift-crypto's.
///
/// A key is lent to one sandbox (a server, its siblings and restarts: ``RSAKeyLease``) and comes
/// back when the sandbox is deleted (``TestServer/stop()``), so no two live servers share a key,
/// and the suite makes about as many keys as servers run at once instead of one per server (one
/// per server was 726 `openssl` runs, 100 s of the 340 s suite's CPU).
enum OpenSSLKeys {
    private static let spare = Mutex<[String]>([])

    /// A spare key, or a new one; `nil` without openssl.
    fileprivate static func take() async throws -> String? {
        if let key = spare.withLock({ $0.popLast() }) { return key }
        return try await generate()
    }

    fileprivate static func giveBack(_ keys: [String]) {
        spare.withLock { $0.append(contentsOf: keys) }
    }

    private static func generate() async throws -> String? {
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

/// The RSA keys one sandbox was given (its first boot's and any rotation's), returned to
/// ``OpenSSLKeys`` when the sandbox and its database are deleted.
final class RSAKeyLease: Sendable {
    private let held = Mutex<[String]>([])

    /// The source a server of this sandbox makes its RSA keys from.
    var source: RSAKeySource {
        RSAKeySource { [self] in
            guard let key = try await OpenSSLKeys.take() else { return nil }
            held.withLock { $0.append(key) }
            return key
        }
    }

    /// Called once the sandbox is gone: no server holds these keys any more.
    func end() {
        OpenSSLKeys.giveBack(held.withLock { keys in
            defer { keys = [] }
            return keys
        })
    }
}
