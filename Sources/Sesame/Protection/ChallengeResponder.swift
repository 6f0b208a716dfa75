import Foundation
import Logging
import SesameProtocol

/// Answers the server's abuse challenges for ``ProviderHTTP`` (docs/abuse-protection.md): a
/// challenge within ``ceiling`` is solved by the ``ProofOfWorkSolver`` on all cores while the
/// app's events stream hears ``SesameEvent/challenge(_:)`` (started, progress about ten times a
/// second, solved); a harder one is refused with ``SesameError/Code-swift.struct/challengeTooHard``
/// before any work.
struct ChallengeResponder: ChallengeSolving {
    let solver: ProofOfWorkSolver
    /// ``SesameConfiguration/maximumChallengeDifficulty``.
    let ceiling: Int
    let events: EventBroadcaster
    let logger: Logger
    /// Least time between two progress events, in seconds.
    var progressInterval: TimeInterval = 0.1

    func solve(_ challenge: ProofOfWorkChallenge) async throws(SesameError) -> ProofOfWorkSolution {
        let difficulty = challenge.kind == .proofOfWork ? challenge.difficulty : 0
        guard difficulty <= ceiling else {
            logger.notice(
                "refused a challenge above the ceiling", metadata: ["difficulty": "\(difficulty)", "ceiling": "\(ceiling)"])
            throw .challengeTooHard(difficulty: difficulty, ceiling: ceiling)
        }
        events.publish(.challenge(.started(kind: challenge.kind, difficulty: difficulty)))
        // The monotonic uptime, not `ContinuousClock` (iOS 16).
        let now: @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }
        let started = now()
        let expected = difficulty > 0 ? 1 << difficulty : 0
        let lastReport = LockedState(started)
        let (events, interval) = (events, progressInterval)
        let solution: ProofOfWorkSolution
        do {
            solution = try await solver.solve(challenge) { hashes in
                let time = now()
                let due = lastReport.withLock { last in
                    guard time - last >= interval else { return false }
                    last = time
                    return true
                }
                if due { events.publish(.challenge(.progress(hashes: hashes, expected: expected))) }
            }
        } catch let error as SesameError {
            throw error
        } catch {
            throw .cancelled
        }
        let duration = now() - started
        events.publish(.challenge(.solved(difficulty: difficulty, duration: duration)))
        logger.debug("solved a challenge", metadata: ["difficulty": "\(difficulty)", "seconds": "\(duration)"])
        return solution
    }
}
