import Crypto
import Foundation
import Synchronization
import _CryptoExtras

/// The bound that signing alone sets: RS256 signatures per second on every core,
/// with nothing else running. RS256 is RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3) over a
/// 2048-bit key, the server's key size, through the same library the server signs with
/// (swift-crypto / BoringSSL).
///
/// One OS thread per core, each signing JWS signing inputs back to back. Threads, not tasks:
/// the benchmark runner blocks one thread of Swift's cooperative pool while a benchmark runs,
/// so tasks would see one core fewer than the machine has.
enum SigningBound {
    static func signaturesPerSecond(signaturesPerThread: Int = 400) async throws -> Double {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signingInput = Data(
            ("eyJhbGciOiJSUzI1NiIsImtpZCI6ImJlbmNoIiwidHlwIjoiYXQrand0In0."
                + String(repeating: "eyJpc3MiOiJodHRwOi8vMTI3LjAuMC4xIn0", count: 8)).utf8)
        _ = try key.signature(for: signingInput, padding: .insecurePKCS1v1_5)  // warm up
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let remaining = Countdown(threads)
        let clock = ContinuousClock()
        let start = clock.now
        let elapsed: Duration = await withCheckedContinuation { continuation in
            for _ in 0..<threads {
                let thread = Thread {
                    for _ in 0..<signaturesPerThread {
                        _ = try? key.signature(for: signingInput, padding: .insecurePKCS1v1_5)
                    }
                    if remaining.finishOne() {
                        continuation.resume(returning: clock.now - start)
                    }
                }
                thread.start()
            }
        }
        return Double(threads * signaturesPerThread) / elapsed.seconds
    }
}

/// Counts finished threads; `finishOne()` is true for the last one.
final class Countdown: Sendable {
    private let left: Mutex<Int>
    init(_ count: Int) { left = Mutex(count) }
    func finishOne() -> Bool { left.withLock { $0 -= 1; return $0 == 0 } }
}
