import Foundation
import SesameProtocol
import SesameStore

/// When the sign-in, sign-up and password-reset endpoints answer with a challenge
/// (``ProofOfWorkChallenge``) instead of doing the work, and how hard it is
/// (docs/abuse-protection.md).
///
/// Pressure is measured per client address (``ClientAddressKey``) in an aligned
/// ``observationWindow``: the requests to the endpoint, and for sign-in also the failed
/// passwords. Once either reaches its threshold the source "looks automated": pressure
/// `p = max(failures / failureThreshold, requests / requestThreshold)` ≥ 1, and the difficulty is
/// ``baseDifficulty`` + ⌊log₂ p⌋ bits, at most ``maximumDifficulty``: each doubling of the
/// pressure doubles the work per request. An endpoint in ``Mode/always`` asks every request
/// (at least ``baseDifficulty``).
///
/// The defaults never bother one person signing in (a source needs 10 wrong passwords or 60
/// sign-in requests in 10 minutes); the cap of 20 bits is about a million SHA-256 hashes on
/// average: a fraction of a second for the SDK's native solver on a phone, about a second for
/// the hosted page's Web Crypto solver in a desktop browser.
public struct ChallengePolicy: Sendable, Equatable {
    /// The endpoints that can be challenged.
    public enum Endpoint: String, Sendable, CaseIterable {
        /// `POST /authorize-challenge` (username and password), `POST /login`.
        case signIn = "sign_in"
        /// `POST /api/signup`, `POST /signup`.
        case signUp = "sign_up"
        /// `POST /api/password/reset`, `POST /password-reset`.
        case passwordReset = "password_reset"
    }

    /// Whether an endpoint is challenged.
    public enum Mode: String, Sendable {
        /// Never.
        case off
        /// When the source's pressure crosses a threshold (the default).
        case automatic
        /// Every request.
        case always
    }

    public var modes: [Endpoint: Mode]
    /// `proof_of_work` (default), or `clear_pass` for operators who want only the round-trip.
    public var kind: ProofOfWorkChallenge.Kind
    /// Bits asked at pressure 1 (and in ``Mode/always``). Default 14.
    public var baseDifficulty: Int
    /// The cap. Default 20.
    public var maximumDifficulty: Int
    /// How long a challenge can be solved and redeemed. Default 120 s.
    public var lifetime: TimeInterval
    /// The window pressure is counted in. Default 10 minutes.
    public var observationWindow: TimeInterval
    /// Failed passwords from one address per window at pressure 1. Default 10.
    public var failureThreshold: Int
    /// Requests from one address per window at pressure 1. Defaults: sign-in 60, sign-up 5,
    /// password reset 10.
    public var requestThresholds: [Endpoint: Int]

    public init(
        modes: [Endpoint: Mode] = [:], kind: ProofOfWorkChallenge.Kind = .proofOfWork, baseDifficulty: Int = 14,
        maximumDifficulty: Int = 20, lifetime: TimeInterval = 120, observationWindow: TimeInterval = 600,
        failureThreshold: Int = 10,
        requestThresholds: [Endpoint: Int] = [.signIn: 60, .signUp: 5, .passwordReset: 10]
    ) {
        self.modes = modes
        self.kind = kind
        self.baseDifficulty = baseDifficulty
        self.maximumDifficulty = maximumDifficulty
        self.lifetime = lifetime
        self.observationWindow = observationWindow
        self.failureThreshold = failureThreshold
        self.requestThresholds = requestThresholds
    }

    /// No challenges at all.
    public static let off = ChallengePolicy(modes: Dictionary(uniqueKeysWithValues: Endpoint.allCases.map { ($0, .off) }))

    /// The mode of `endpoint` (``Mode/automatic`` unless set).
    public func mode(_ endpoint: Endpoint) -> Mode { modes[endpoint] ?? .automatic }

    /// Whether any endpoint can be challenged.
    public var isOff: Bool { Endpoint.allCases.allSatisfy { mode($0) == .off } }

    /// The difficulty to ask of a request to `endpoint` from a source with `requests` requests
    /// (this one included) and `failures` failed passwords in the window; `nil`: no challenge.
    public func difficulty(for endpoint: Endpoint, requests: Int, failures: Int) -> Int? {
        let mode = mode(endpoint)
        guard mode != .off else { return nil }
        var pressure = Double(requests) / Double(max(1, requestThresholds[endpoint] ?? Int.max))
        if endpoint == .signIn { pressure = max(pressure, Double(failures) / Double(max(1, failureThreshold))) }
        guard pressure >= 1 || mode == .always else { return nil }
        guard kind == .proofOfWork else { return 0 }
        let raised = pressure >= 1 ? Int(log2(pressure).rounded(.down)) : 0
        let cap = min(max(0, maximumDifficulty), ProofOfWork.maximumDifficulty)
        return min(max(0, baseDifficulty) + raised, cap)
    }
}
