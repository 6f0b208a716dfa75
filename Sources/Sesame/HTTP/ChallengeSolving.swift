import SesameProtocol

/// What ``ProviderHTTP`` asks when the server answers 429 with an abuse challenge
/// (docs/abuse-protection.md): a solution to send with the retried request, or the
/// ``SesameError`` that ends the request. ``ChallengeResponder`` (Protection/) is the SDK's.
protocol ChallengeSolving: Sendable {
    func solve(_ challenge: ProofOfWorkChallenge) async throws(SesameError) -> ProofOfWorkSolution
}
