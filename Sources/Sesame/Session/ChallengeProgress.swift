import Foundation
import SesameProtocol

/// How the SDK is doing with a server's challenge (``SesameEvent/challenge(_:)``), e.g. for a
/// progress indicator.
public enum ChallengeProgress: Sendable, Equatable {
    /// Work started; about 2^difficulty hashes are needed on average.
    case started(kind: ProofOfWorkChallenge.Kind, difficulty: Int)
    /// Hashes tried so far, and the average a solution needs.
    case progress(hashes: Int, expected: Int)
    /// Found, after `duration` seconds; the request is sent again with the solution.
    case solved(difficulty: Int, duration: TimeInterval)
}
