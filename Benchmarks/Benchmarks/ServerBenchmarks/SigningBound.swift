import Crypto
import Foundation
import Synchronization
import _CryptoExtras

/// The bound that signing alone sets through swift-crypto (BoringSSL): signatures per second
/// on every core, with nothing else running. The refresh benchmarks' bound is `openssl speed`'s
/// (``OpenSSLSpeed``), since the server signs RS256 with libcrypto on Linux; this one is what
/// the server would reach where swift-crypto signs (Apple platforms, or a key libcrypto
/// refuses), reported beside it. On a CPU with AVX-512 IFMA it is less than half of OpenSSL's.
/// RS256 is RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3) over a 2048-bit key, the server's
/// key size; ES256 is ECDSA over P-256 with SHA-256 (RFC 7518 §3.4), a client's opt-in
/// access-token algorithm.
///
/// One OS thread per core, each signing JWS signing inputs back to back. Threads, not tasks:
/// the benchmark runner blocks one thread of Swift's cooperative pool while a benchmark runs,
/// so tasks would see one core fewer than the machine has.
enum SigningBound {
    /// A JWS signing input of an access token's size.
    private static let signingInput = Data(
        ("eyJhbGciOiJSUzI1NiIsImtpZCI6ImJlbmNoIiwidHlwIjoiYXQrand0In0."
            + String(repeating: "eyJpc3MiOiJodHRwOi8vMTI3LjAuMC4xIn0", count: 8)).utf8)

    /// RS256 signatures per second on all cores.
    static func signaturesPerSecond(signaturesPerThread: Int = 400) async throws -> Double {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        return try await perSecond(signaturesPerThread) { _ = try key.signature(for: signingInput, padding: .insecurePKCS1v1_5) }
    }

    /// ES256 signatures per second on all cores.
    static func es256SignaturesPerSecond(signaturesPerThread: Int = 4_000) async throws -> Double {
        let key = P256.Signing.PrivateKey()
        return try await perSecond(signaturesPerThread) { _ = try key.signature(for: signingInput) }
    }

    /// Refreshes per second that signing alone allows, each with `rsa` RS256 and `es256` ES256
    /// signatures (issue #50: "with ES256 access tokens opted in, … its own bound (one RSA and
    /// one P-256 signature)"), and the CPU those signatures take per refresh, in microseconds
    /// (every core's time counted: `cores / signatures per second` a signature).
    static func refreshBound(rsa: Double, es256: Double, rsaPerSecond: Double, es256PerSecond: Double) -> (
        refreshesPerSecond: Double, signingCPUMicroseconds: Double
    ) {
        let secondsOfAllCores = rsa / rsaPerSecond + es256 / es256PerSecond
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        return (1 / secondsOfAllCores, secondsOfAllCores * cores * 1e6)
    }

    /// The server's CPU per refresh outside its signatures, in microseconds: `cpuPerRefresh` less
    /// what the signatures cost at the bound's rate (issue #50: "the work around the signatures
    /// ≤ 400 µs"). Zero when a round's bound ran slower than the server signed (the VM's speed
    /// drifts between the two measurements), since a metric cannot be negative.
    static func outsideSignatures(
        cpuPerRefresh: Double, bound: (refreshesPerSecond: Double, signingCPUMicroseconds: Double)
    ) -> Int {
        max(0, Int((cpuPerRefresh - bound.signingCPUMicroseconds).rounded()))
    }

    private static func perSecond(_ perThread: Int, _ sign: @escaping @Sendable () throws -> Void) async throws -> Double {
        try sign()  // warm up
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let remaining = Countdown(threads)
        let clock = ContinuousClock()
        let start = clock.now
        let elapsed: Duration = await withCheckedContinuation { continuation in
            for _ in 0..<threads {
                let thread = Thread {
                    for _ in 0..<perThread { try? sign() }
                    if remaining.finishOne() {
                        continuation.resume(returning: clock.now - start)
                    }
                }
                thread.start()
            }
        }
        return Double(threads * perThread) / elapsed.seconds
    }
}

/// Counts finished threads; `finishOne()` is true for the last one.
final class Countdown: Sendable {
    private let left: Mutex<Int>
    init(_ count: Int) { left = Mutex(count) }
    func finishOne() -> Bool { left.withLock { $0 -= 1; return $0 == 0 } }
}
