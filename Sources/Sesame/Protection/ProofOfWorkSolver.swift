import Crypto
import Foundation
import SesameProtocol

/// Solves a server's `ProofOfWorkChallenge` (docs/abuse-protection.md): finds a nonce such that
/// SHA-256(seed ‖ 8-byte big-endian nonce) has `difficulty` leading zero bits.
///
/// One worker per core (``parallelism``, default the active processor count), each trying its
/// share of the nonces (start, start + parallelism, …) on a 64-byte input buffer it owns: no
/// locks or allocations in the loop but the hash's own. The first nonce found stops the others.
/// A clear pass (difficulty 0) needs no work.
///
/// The workers are threads of their own, not tasks: a search can take a second of every core,
/// and Swift's cooperative pool, which has one thread per core, is the app's (its network
/// callbacks, its actors); the caller only awaits, and its actor stays free. Cancelling the
/// awaiting task stops the workers within one ``batch`` of hashes.
public struct ProofOfWorkSolver: Sendable {
    /// Concurrent workers. Default: `ProcessInfo.activeProcessorCount`.
    public var parallelism: Int
    /// Hashes between two looks at cancellation and progress.
    public var batch: Int = 1 << 14

    /// A solver with `parallelism` worker threads (at least one); pass fewer than the core count to
    /// leave cores to the app while it solves.
    public init(parallelism: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.parallelism = max(1, parallelism)
    }

    /// The solution of `challenge`. `progress` is called now and then, from the workers, with the
    /// hashes tried so far (all workers together); on average a solution takes 2^difficulty.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first;
    ///   ``SesameError/Code-swift.struct/protocolViolation`` for a challenge that cannot be solved (unknown
    ///   algorithm, malformed seed, difficulty out of range).
    public func solve(
        _ challenge: ProofOfWorkChallenge, progress: @escaping @Sendable (_ hashes: Int) -> Void = { _ in }
    ) async throws -> ProofOfWorkSolution {
        guard challenge.kind == .proofOfWork, challenge.difficulty > 0 else {
            return ProofOfWorkSolution(token: challenge.token, nonce: 0)
        }
        guard challenge.algorithm == ProofOfWork.algorithm else {
            throw SesameError.protocolViolation("the challenge uses \(challenge.algorithm); only SHA-256 is known")
        }
        guard let seed = challenge.seedBytes, challenge.difficulty <= ProofOfWork.maximumDifficulty else {
            throw SesameError.protocolViolation(
                "the challenge's seed is not \(ProofOfWork.seedLength) bytes of base64url, or its difficulty is above \(ProofOfWork.maximumDifficulty)")
        }
        let nonce = try await search(seed: seed, difficulty: challenge.difficulty, progress: progress)
        return ProofOfWorkSolution(token: challenge.token, nonce: nonce)
    }

    /// The first nonce any worker finds.
    func search(seed: [UInt8], difficulty: Int, progress: @escaping @Sendable (Int) -> Void) async throws -> UInt64 {
        let workers = parallelism
        let batch = max(1, batch)
        let search = Search(workers: workers)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UInt64, any Error>) in
                search.begin(continuation)
                for start in 0..<workers {
                    let thread = Thread {
                        let found = Self.scan(
                            seed: seed, difficulty: difficulty, start: UInt64(start), step: UInt64(workers), batch: batch,
                            stop: { search.stopped }
                        ) { count in progress(search.count(count)) }
                        search.finish(found)
                    }
                    thread.name = "sesame.proof-of-work"
                    thread.start()
                }
            }
        } onCancel: {
            search.stop()
        }
    }

    /// One worker's share: nonces `start`, `start + step`, … until one solves the puzzle
    /// (returned) or `stop` says so (`nil`). Calls `report` with each finished batch's size.
    static func scan(
        seed: [UInt8], difficulty: Int, start: UInt64, step: UInt64, batch: Int, stop: () -> Bool,
        report: (Int) -> Void
    ) -> UInt64? {
        var input = [UInt8](repeating: 0, count: ProofOfWork.seedLength + 8)
        input.replaceSubrange(0..<ProofOfWork.seedLength, with: seed)
        var nonce = start
        return input.withUnsafeMutableBytes { buffer in
            let noncePointer = buffer.baseAddress! + ProofOfWork.seedLength
            let bytes = UnsafeRawBufferPointer(buffer)
            while !stop() {
                for _ in 0..<batch {
                    noncePointer.storeBytes(of: nonce.bigEndian, as: UInt64.self)
                    var hasher = SHA256()
                    hasher.update(bufferPointer: bytes)
                    if leadingZeroBits(hasher.finalize()) >= difficulty { return nonce }
                    nonce &+= step
                }
                report(batch)
            }
            return nil
        }
    }

    /// Leading zero bits of a digest, from its first 8 bytes (difficulties stay below 64).
    @inline(__always)
    static func leadingZeroBits(_ digest: SHA256.Digest) -> Int {
        digest.withUnsafeBytes { bytes in
            UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)).leadingZeroBitCount
        }
    }
}

/// The shared state of one search: the stop flag the workers poll, the hash count, and the
/// continuation resumed once, by the first nonce found or, when every worker stopped without
/// one, with `CancellationError`.
private final class Search: Sendable {
    private struct State {
        var continuation: CheckedContinuation<UInt64, any Error>?
        var running: Int
        var resumed = false
    }

    private let flag = LockedState(false)
    private let hashed = LockedState(0)
    private let state: LockedState<State>

    init(workers: Int) { state = LockedState(State(running: workers)) }

    var stopped: Bool { flag.withLock { $0 } }

    func stop() { flag.withLock { $0 = true } }

    /// Adds `count` hashes; the total so far.
    func count(_ count: Int) -> Int {
        hashed.withLock { total in
            total += count
            return total
        }
    }

    func begin(_ continuation: CheckedContinuation<UInt64, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// A worker ended, with the nonce it found or without.
    func finish(_ found: UInt64?) {
        if found != nil { stop() }
        let resume: (CheckedContinuation<UInt64, any Error>, Result<UInt64, any Error>)? = state.withLock { state in
            state.running -= 1
            guard !state.resumed, let continuation = state.continuation else { return nil }
            if let found {
                state.resumed = true
                return (continuation, .success(found))
            }
            guard state.running == 0 else { return nil }
            state.resumed = true
            return (continuation, .failure(CancellationError()))
        }
        if let (continuation, result) = resume { continuation.resume(with: result) }
    }
}
