import ArgumentParser
import Foundation
import SesameProtocol
import SesameServer

/// `sesame serve`'s challenges (``ChallengePolicy``) and audit log settings.
struct AbuseProtectionOptions: ParsableArguments {
    @Option(
        name: .customLong("challenge"),
        help: ArgumentHelp(
            "When an endpoint asks for a challenge: ENDPOINT=automatic|always|off (repeatable).",
            discussion: "Endpoints: sign_in, sign_up, password_reset. automatic (the default) challenges a client address that looks automated (10 failed passwords or 60 sign-ins, 5 sign-ups or 10 reset requests in 10 minutes); always challenges every request."))
    var challenges: [String] = []

    @Option(name: .customLong("challenge-kind"), help: "proof_of_work (the default) or clear_pass (no work, only the round-trip).")
    var kind: String = ProofOfWorkChallenge.Kind.proofOfWork.rawValue

    @Option(name: .customLong("challenge-difficulty"), help: "Leading zero bits asked at the threshold and in always mode (default 14).")
    var difficulty: Int = ChallengePolicy().baseDifficulty

    @Option(
        name: .customLong("challenge-max-difficulty"),
        help: "The cap as pressure rises (default 20: about a million hashes, a second in a browser).")
    var maximumDifficulty: Int = ChallengePolicy().maximumDifficulty

    @Flag(name: .customLong("no-challenges"), help: "Never ask for a challenge.")
    var off = false

    @Option(
        name: .customLong("audit-retention"),
        help: "Days audit records are kept before the purge deletes them (default 90; 0 keeps them forever).")
    var auditRetentionDays: Double = 90

    @Flag(name: .customLong("no-audit-log"), help: "Do not record security decisions in the audit log.")
    var noAuditLog = false

    func policy() throws -> ChallengePolicy {
        if off { return .off }
        guard let kind = ProofOfWorkChallenge.Kind(rawValue: kind) else {
            throw CLIError("--challenge-kind '\(kind)' is not known", hint: "Use proof_of_work or clear_pass.")
        }
        guard (0...ProofOfWork.maximumDifficulty).contains(difficulty),
            (difficulty...ProofOfWork.maximumDifficulty).contains(maximumDifficulty)
        else {
            throw CLIError(
                "--challenge-difficulty \(difficulty) and --challenge-max-difficulty \(maximumDifficulty) are out of range",
                hint: "Both are bits between 0 and \(ProofOfWork.maximumDifficulty), the maximum at least the difficulty; e.g. 14 and 20.")
        }
        var policy = ChallengePolicy(kind: kind, baseDifficulty: difficulty, maximumDifficulty: maximumDifficulty)
        for text in challenges {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            let hint = "Write e.g. --challenge sign_in=always or --challenge sign_up=off."
            guard parts.count == 2 else { throw CLIError("--challenge '\(text)' is not ENDPOINT=MODE", hint: hint) }
            guard let endpoint = ChallengePolicy.Endpoint(rawValue: parts[0]) else {
                throw CLIError(
                    "--challenge: unknown endpoint '\(parts[0])'",
                    hint: "Use one of \(ChallengePolicy.Endpoint.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            guard let mode = ChallengePolicy.Mode(rawValue: parts[1]) else {
                throw CLIError("--challenge: unknown mode '\(parts[1])'", hint: "Use automatic, always or off.")
            }
            policy.modes[endpoint] = mode
        }
        return policy
    }

    /// The audit retention in seconds; `nil` keeps records forever.
    func auditRetention() throws -> TimeInterval? {
        guard auditRetentionDays >= 0, auditRetentionDays.isFinite else {
            throw CLIError("--audit-retention must be a number of days, 0 or more", hint: "e.g. --audit-retention 90")
        }
        return auditRetentionDays == 0 ? nil : auditRetentionDays * 86_400
    }
}
