import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// Decides, before a sign-in, sign-up or password-reset request does its work (a password hash,
/// an account, a mail), whether it must first solve a challenge (``ChallengePolicy``), and
/// checks the solutions sent back (docs/abuse-protection.md):
/// - issuing is stateless: the challenge is a MAC-protected ``ChallengeToken``;
/// - a solution (`Sesame-Challenge-Solution: <token>:<nonce>`, or the hosted forms'
///   `challenge_token` and `challenge_nonce` fields) is accepted when the MAC holds, it has not
///   expired, it was issued for this endpoint, login name or address and client, the nonce gives
///   the difficulty's leading zero bits, and its identifier was never redeemed before, in any
///   process (``ChallengeRedemptionStore``);
/// - pressure (requests and failed passwords per client address) is counted by a
///   ``RateLimiter`` of its own, shared through the store like the request rate limits.
///
/// Every decision goes to the audit log: `challenge.issued`, `challenge.solved`,
/// `challenge.refused` with the rule that failed.
final class ChallengeGate: Sendable {
    /// What to do with a request.
    enum Admission: Sendable {
        /// Do the work (no challenge was needed, or a valid solution came with the request).
        case admitted
        /// Answer with this challenge instead; `refusal` says why a solution sent was refused.
        case challenged(ProofOfWorkChallenge, refusal: ChallengeToken.Refusal?)
    }

    /// Where a challenge was issued, part of what it is good for: a solution of a JSON API's
    /// challenge (`/authorize-challenge`, `/api/signup`, …) is never accepted by a hosted form,
    /// nor the reverse, even for the same endpoint class and subject.
    enum Surface: String, Sendable {
        /// A JSON endpoint; the subject is the login name or email address sent.
        case api
        /// A hosted form; the subject is the page's CSRF token.
        case hostedForm = "hosted_form"
    }

    /// The form fields of the hosted pages' solver.
    static let tokenField = "challenge_token"
    static let nonceField = "challenge_nonce"

    let policy: ChallengePolicy
    let counters: RateLimiter
    private let codec: MACProtectedPayload
    private let redemptions: any ChallengeRedemptionStore
    private let audit: AuditLog
    private let now: @Sendable () -> Date

    init(
        policy: ChallengePolicy, masterKey: SymmetricKey, counters: RateLimiter,
        redemptions: any ChallengeRedemptionStore, audit: AuditLog, now: @escaping @Sendable () -> Date
    ) {
        self.policy = policy
        self.codec = ChallengeToken.codec(masterKey: masterKey)
        self.counters = counters
        self.redemptions = redemptions
        self.audit = audit
        self.now = now
    }

    /// The solution a request carries: the header, else the hosted form's fields.
    static func solution(_ request: Request, form: [String: String]?) -> ProofOfWorkSolution? {
        if let value = request.headers[HTTPField.Name(ProofOfWorkSolution.headerName)!] {
            return ProofOfWorkSolution(headerValue: value)
        }
        // A form whose solver did not run (no JavaScript) sends the token without a nonce: no
        // solution, not a wrong one.
        guard let token = form?[tokenField], !token.isEmpty, let nonce = form?[nonceField], !nonce.isEmpty else {
            return nil
        }
        return ProofOfWorkSolution(headerValue: "\(token):\(nonce)")
    }

    /// Counts the request and decides (see the type's documentation). `subject` is what the
    /// request is about (the login name as typed, the email address): a solution is good for
    /// that subject only. A challenged request's log outcome is `challenged` or `challenge_refused`.
    func admit(
        _ endpoint: ChallengePolicy.Endpoint, surface: Surface, subject: String, clientID: String?,
        solution: ProofOfWorkSolution?, context: SesameRequestContext
    ) async throws -> Admission {
        guard policy.mode(endpoint) != .off else { return .admitted }
        let address = ClientAddressKey.of(context.clientAddress)
        var requests = 0
        var failures = 0
        if let address {
            requests = await counters.count(Self.requestKey(endpoint, address), window: policy.observationWindow)
            if endpoint == .signIn { failures = counters.current(Self.failureKey(address), window: policy.observationWindow) }
        }
        let binding = Self.binding(endpoint, surface: surface, subject: subject, clientID: clientID)
        let difficulty = policy.difficulty(for: endpoint, requests: requests, failures: failures)
        let detail = ["endpoint": endpoint.rawValue, "requests": "\(requests)", "failures": "\(failures)"]
        if let solution {
            let refusal = try await check(solution, binding: binding)
            if let refusal {
                audit.record(.challengeRefused, reason: refusal.rawValue, context: context, clientID: clientID, detail: detail)
                context.annotations.record(outcome: "challenge_refused")
                return .challenged(
                    issue(binding: binding, difficulty: difficulty ?? policy.baseDifficulty, endpoint: endpoint, context: context, clientID: clientID, detail: detail),
                    refusal: refusal)
            }
            audit.record(.challengeSolved, context: context, clientID: clientID, detail: detail)
            return .admitted
        }
        guard let difficulty else { return .admitted }
        context.annotations.record(outcome: "challenged")
        return .challenged(
            issue(binding: binding, difficulty: difficulty, endpoint: endpoint, context: context, clientID: clientID, detail: detail),
            refusal: nil)
    }

    /// The challenge to embed in a hosted form being shown (the sign-in, sign-up or reset page),
    /// so the browser solves it while the user types; `nil` when the form's submission would not
    /// be challenged now. Counts nothing. `subject` is the page's CSRF token: a hosted form's
    /// challenge is good for that browser's form only.
    func pageChallenge(
        _ endpoint: ChallengePolicy.Endpoint, subject: String, clientID: String?, context: SesameRequestContext
    ) -> ProofOfWorkChallenge? {
        guard policy.mode(endpoint) != .off else { return nil }
        var (requests, failures) = (1, 0)
        if let address = ClientAddressKey.of(context.clientAddress) {
            requests += counters.current(Self.requestKey(endpoint, address), window: policy.observationWindow)
            if endpoint == .signIn { failures = counters.current(Self.failureKey(address), window: policy.observationWindow) }
        }
        guard let difficulty = policy.difficulty(for: endpoint, requests: requests, failures: failures) else { return nil }
        return issue(
            binding: Self.binding(endpoint, surface: .hostedForm, subject: subject, clientID: clientID), difficulty: difficulty,
            endpoint: endpoint, context: context, clientID: clientID,
            detail: ["endpoint": endpoint.rawValue, "requests": "\(requests)", "failures": "\(failures)", "page": "true"])
    }

    /// Counts a failed password from the request's address (sign-in pressure).
    func recordFailure(context: SesameRequestContext) async {
        guard policy.mode(.signIn) == .automatic, let address = ClientAddressKey.of(context.clientAddress) else { return }
        _ = await counters.count(Self.failureKey(address), window: policy.observationWindow)
    }

    /// The JSON answer for a challenged API request: HTTP 429 `proof_of_work_required` (4001),
    /// or `invalid_challenge_solution` (4002) when a solution was refused, with the challenge.
    static func failure(_ challenge: ProofOfWorkChallenge, refusal: ChallengeToken.Refusal?) -> ChallengeRequired {
        let work = challenge.kind == .clearPass
            ? "send the same request again with the header \(ProofOfWorkSolution.headerName): <token>:0"
            : "find a nonce such that SHA-256(seed || 8-byte big-endian nonce) has \(challenge.difficulty) leading zero bits, then send the same request again with the header \(ProofOfWorkSolution.headerName): <token>:<nonce>"
        let description =
            if let refusal {
                "The challenge solution was refused (rule \(refusal.rawValue)); solve the new challenge: \(work)."
            } else {
                "This request needs a challenge solved first: \(work)."
            }
        return ChallengeRequired(failure: ProviderFailure(errorCode(refusal: refusal), description), challenge: challenge)
    }

    /// `proof_of_work_required` (4001) for a new challenge, `invalid_challenge_solution` (4002)
    /// when a solution was refused: the JSON code, and the hosted pages' message.
    static func errorCode(refusal: ChallengeToken.Refusal?) -> APIErrorCode {
        refusal == nil ? .proofOfWorkRequired : .invalidChallengeSolution
    }

    // MARK: Issuing and checking

    private func issue(
        binding: String, difficulty: Int, endpoint: ChallengePolicy.Endpoint, context: SesameRequestContext,
        clientID: String?, detail: [String: String]
    ) -> ProofOfWorkChallenge {
        let kind = policy.kind
        let seed = kind == .proofOfWork ? Base64URL.encode(SecureRandom.bytes(ProofOfWork.seedLength)) : ""
        let bits = kind == .proofOfWork ? difficulty : 0
        let expiresAt = Int(now().addingTimeInterval(policy.lifetime).timeIntervalSince1970.rounded(.up))
        let token = ChallengeToken(
            id: Base64URL.encode(SecureRandom.bytes(16)), kind: kind, seed: seed, difficulty: bits,
            expiresAt: expiresAt, binding: binding)
        var detail = detail
        detail["kind"] = kind.rawValue
        detail["difficulty"] = "\(bits)"
        audit.record(.challengeIssued, context: context, clientID: clientID, detail: detail)
        return ProofOfWorkChallenge(
            kind: kind, token: token.encoded(with: codec), seed: seed, difficulty: bits, expiresAt: expiresAt)
    }

    /// The rule `solution` breaks, or `nil` when it is good (and now redeemed).
    private func check(_ solution: ProofOfWorkSolution, binding: String) async throws -> ChallengeToken.Refusal? {
        let token: ChallengeToken
        switch ChallengeToken.decode(solution.token, with: codec) {
        case .failure(let refusal): return refusal
        case .success(let decoded): token = decoded
        }
        guard Double(token.expiresAt) > now().timeIntervalSince1970 else { return .expired }
        guard ConstantTime.equals(token.binding, binding) else { return .otherRequest }
        if token.kind == .proofOfWork {
            guard let seed = Base64URL.decode(bytes: Array(token.seed.utf8)[...]), seed.count == ProofOfWork.seedLength,
                ProofOfWork.isSolution(seed: seed, nonce: solution.nonce, difficulty: token.difficulty)
            else { return .wrongNonce }
        }
        let expiry = Date(timeIntervalSince1970: Double(token.expiresAt))
        guard try await redemptions.redeemChallenge(id: token.id, expiresAt: expiry) else { return .reused }
        return nil
    }

    /// What a challenge is good for: the endpoint, where it was issued, the subject as typed
    /// (trimmed, lowercased, NFC) and the client, hashed (base64url of SHA-256). The surface
    /// comes before the subject, so no subject can make one surface's binding another's.
    static func binding(
        _ endpoint: ChallengePolicy.Endpoint, surface: Surface, subject: String, clientID: String?
    ) -> String {
        let normalized = subject.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            .precomposedStringWithCanonicalMapping
        let text = [endpoint.rawValue, surface.rawValue, normalized, clientID ?? ""].joined(separator: "\u{0}")
        return Base64URL.sha256(of: text)
    }

    private static func requestKey(_ endpoint: ChallengePolicy.Endpoint, _ address: String) -> String {
        "challenge\u{0}\(endpoint.rawValue)\u{0}\(address)"
    }

    private static func failureKey(_ address: String) -> String { "challenge\u{0}failures\u{0}\(address)" }
}

/// The JSON answer of a challenged request: the common error members plus `challenge`.
struct ChallengeRequired: APIErrorRendering {
    var failure: ProviderFailure
    let challenge: ProofOfWorkChallenge

    func decorate(_ body: inout APIError) { body.challenge = challenge }
}

extension ChallengeGate {
    /// For the JSON endpoints: returns when the request may do its work; otherwise throws the
    /// ``ChallengeRequired`` answer (HTTP 429 with the challenge).
    func require(
        _ endpoint: ChallengePolicy.Endpoint, subject: String, clientID: String?, request: Request,
        context: SesameRequestContext
    ) async throws {
        let admission = try await admit(
            endpoint, surface: .api, subject: subject, clientID: clientID, solution: Self.solution(request, form: nil),
            context: context)
        guard case .challenged(let challenge, let refusal) = admission else { return }
        throw Self.failure(challenge, refusal: refusal)
    }
}
