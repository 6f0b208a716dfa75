import Foundation
import SesameProtocol

/// What an app's analytics learn from the SDK (the tracking hooks of the vendor SDKs Sesame
/// replaces): sign-in started, succeeded, failed or cancelled, single sign-on used, step-up and
/// logout, with non-secret attributes only. Separate from ``SesameClient/events()``, which is
/// the session state; set a handler with ``SesameClient/setAnalytics(_:)``.
public struct AnalyticsEvent: Sendable, Equatable {
    /// The kind of event; the raw value is the snake_case name to forward to an analytics backend.
    public enum Name: String, Sendable, CaseIterable {
        /// A sign-in began; `method` says how (`browser`, `password`, `passkey`, `sso`, `federation`,
        /// `sheet`, `device`).
        case signInStarted = "sign_in_started"
        /// A sign-in finished with a stored, current account (after the second factor, if one was asked).
        case signInSucceeded = "sign_in_succeeded"
        /// A sign-in failed; `error` and, for a Sesame server, `error_code` say why.
        case signInFailed = "sign_in_failed"
        /// The user cancelled the sign-in (closed the browser sheet or the prompt).
        case signInCancelled = "sign_in_cancelled"
        /// A sign-in through a sibling app's session (Native SSO); also counted as a sign-in.
        case ssoUsed = "sso_used"
        /// A step-up to a higher `acr` began for the current session; `acr` is the requested value.
        case stepUp = "step_up"
        /// An account was logged out; `scope` is `this_app` or `everywhere` (Native SSO).
        case logout = "logout"
        /// A server's certificate had no pinned key (``SesameConfiguration/pinning``): `host`, and
        /// `presented_pins`, the space-separated pins of the keys it presented. Nothing was sent.
        case certificatePinMismatch = "certificate_pin_mismatch"
    }

    /// What happened.
    public var name: Name
    /// `method` (`browser`, `password`, `sso`, `pin`), `client_id`, and where it applies
    /// `error` (the OAuth `error`), `error_code` (Sesame's numeric code), `scope` of a logout
    /// (`this_app`, `everywhere`). Never a token, secret, password, code or user identifier.
    public var attributes: [String: String]

    /// Builds an event; the SDK makes these itself, apps need this only to fake events in tests.
    public init(_ name: Name, attributes: [String: String] = [:]) {
        self.name = name
        self.attributes = attributes
    }
}

/// Receives ``AnalyticsEvent``s. Called on the SDK's tasks: return quickly and hand the event
/// to your analytics pipeline.
public protocol SesameAnalytics: Sendable {
    /// Handles one event. Must not block: it runs on the task that reported the event.
    func record(_ event: AnalyticsEvent)
}

/// The app's handler, if any; swapped under a lock so any task may report.
final class AnalyticsDispatcher: Sendable {
    private let handler = LockedState<(any SesameAnalytics)?>(nil)
    let clientID: String

    init(clientID: String) { self.clientID = clientID }

    func set(_ handler: (any SesameAnalytics)?) { self.handler.withLock { $0 = handler } }

    func record(_ name: AnalyticsEvent.Name, _ attributes: [String: String] = [:]) {
        guard let handler = handler.withLock({ $0 }) else { return }
        var all = attributes
        all["client_id"] = clientID
        handler.record(AnalyticsEvent(name, attributes: all))
    }

    /// Runs a sign-in of `method`, reporting start and outcome.
    func signIn<T>(
        _ method: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws(SesameError) -> T
    ) async throws(SesameError) -> T {
        record(.signInStarted, ["method": method])
        do {
            let result = try await body()
            record(.signInSucceeded, ["method": method])
            return result
        } catch {
            failed(error, method: method)
            throw error
        }
    }

    /// A sign-in of `method` failed or was cancelled.
    func failed(_ error: SesameError, method: String) {
        if case .cancelled = error.reason {
            record(.signInCancelled, ["method": method])
        } else {
            record(.signInFailed, Self.attributes(of: error, method: method))
        }
    }

    /// The non-secret description of a failure.
    static func attributes(of error: SesameError, method: String) -> [String: String] {
        var attributes = ["method": method]
        switch error.reason {
        case .requestFailed(let apiError, _), .authenticationFailed(let apiError, _), .stepUpRequired(let apiError):
            attributes["error"] = apiError.error
            if let code = apiError.errorCode { attributes["error_code"] = "\(code)" }
        case .technical: attributes["error"] = "technical"
        case .invalidIDToken(let rule, _): attributes["error"] = "invalid_id_token.\(rule)"
        case .protocolViolation: attributes["error"] = "protocol_violation"
        case .invalidConfiguration: attributes["error"] = "invalid_configuration"
        case .challengeTooHard: attributes["error"] = "challenge_too_hard"
        case .ssoUnavailable: attributes["error"] = "sso_unavailable"
        case .certificatePinMismatch: attributes["error"] = "certificate_pin_mismatch"
        default: attributes["error"] = "other"
        }
        return attributes
    }
}
