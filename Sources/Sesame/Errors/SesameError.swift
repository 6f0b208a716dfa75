import Foundation
import SesameProtocol

/// The one error type of the Sesame SDK: a stable ``code``, a ``category`` an app can branch on,
/// a ``description`` that says what happened and what to do, and the server's own error
/// (``apiError``, with its numeric ``apiErrorCode``) when the server refused.
///
/// A struct rather than an enum (as swift-nio's and swift-certificates' errors are): a code added
/// in a later version never breaks an app's `switch`, which always has a `default`.
///
/// ```swift
/// do { try await sesame.pin.unlock(with: pin) } catch {
///     switch error.category {
///     case .cancelled: break
///     case .invalidInput: showInline(error.description)          // e.g. wrongPIN, with remainingPINAttempts
///     case .signInRequired: showSignIn()
///     default: showAlert(error.description)
///     }
/// }
/// ```
public struct SesameError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The full record of what happened (package-internal; apps read the properties below).
    package let reason: SesameErrorReason

    package init(_ reason: SesameErrorReason) {
        self.reason = reason
    }

    /// What happened and what the app or user can do about it.
    public var description: String { reason.description }

    /// The same failure: the same code and the same details.
    public static func == (lhs: SesameError, rhs: SesameError) -> Bool {
        lhs.code == rhs.code && lhs.description == rhs.description
    }

    /// The stable identifier of this failure.
    public var code: Code { Code(reason) }

    /// What kind of failure this is, for the app's reaction.
    public var category: Category { Category(reason) }

    /// The API error the server answered with (HTTP 4xx, step-up), if any.
    public var apiError: APIError? {
        switch reason {
        case .technical(.server(_, let error)): error
        default: reason.apiError
        }
    }

    /// The HTTP status of a server refusal, if the failure is one.
    public var httpStatus: Int? {
        switch reason {
        case .requestFailed(_, let status), .authenticationFailed(_, let status): status
        case .technical(.server(let status, _)): status
        default: nil
        }
    }

    /// The ID token rule that failed, for ``Code-swift.struct/invalidIDToken``.
    public var idTokenRule: IDTokenRule? {
        if case .invalidIDToken(let rule, _) = reason { return rule }
        return nil
    }

    /// The network, server, storage or platform failure behind ``Code-swift.struct/network``,
    /// ``Code-swift.struct/serverUnavailable``, ``Code-swift.struct/malformedResponse``,
    /// ``Code-swift.struct/storage`` and ``Code-swift.struct/platform``.
    public var technicalFailure: TechnicalFailure? {
        if case .technical(let failure) = reason { return failure }
        return nil
    }

    /// After ``Code-swift.struct/wrongPIN``: how many more PINs the server accepts before the
    /// registration is revoked.
    public var remainingPINAttempts: Int? {
        if case .wrongPIN(let remaining) = reason { return remaining }
        return nil
    }

    /// Why the passkey authenticator gave no answer, for ``Code-swift.struct/passkeyUnavailable``.
    public var passkeyFailure: PasskeyAuthenticatorError? {
        if case .passkeyUnavailable(let cause) = reason { return cause }
        return nil
    }
}

extension SesameError {
    /// A stable identifier for each kind of failure. New codes may be added in any release;
    /// compare with `==` or switch with a `default`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as logged (`wrong_pin`, `invalid_id_token`, …).
        public let rawValue: String
        /// A code by its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The user closed the browser or cancelled sign-in.
        public static let cancelled = Code(rawValue: "cancelled")
        /// A sibling app's session cannot be used (Native SSO); sign in another way.
        public static let ssoUnavailable = Code(rawValue: "sso_unavailable")
        /// The server rejected the request (HTTP 4xx other than 401); see ``SesameError/apiError``.
        public static let requestFailed = Code(rawValue: "request_failed")
        /// Authentication failed (HTTP 401, `invalid_grant`, an error redirect such as `access_denied`).
        public static let authenticationFailed = Code(rawValue: "authentication_failed")
        /// The request did not reach the server or no answer came back.
        public static let network = Code(rawValue: "network")
        /// The server answered 5xx.
        public static let serverUnavailable = Code(rawValue: "server_unavailable")
        /// The server's answer was not what the protocol says.
        public static let malformedResponse = Code(rawValue: "malformed_response")
        /// Reading or writing the credential store failed.
        public static let storage = Code(rawValue: "storage")
        /// A platform facility failed (browser, Keychain, random source).
        public static let platform = Code(rawValue: "platform")
        /// No signed-in account, or not the one asked for.
        public static let noSession = Code(rawValue: "no_session")
        /// The ID token broke a validation rule (``SesameError/idTokenRule``).
        public static let invalidIDToken = Code(rawValue: "invalid_id_token")
        /// The provider or the redirect broke a protocol rule (state, `iss`, issuer).
        public static let protocolViolation = Code(rawValue: "protocol_violation")
        /// The app's configuration cannot be used.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// The server asks for a stronger sign-in (step-up MFA).
        public static let stepUpRequired = Code(rawValue: "step_up_required")
        /// The server's proof-of-work challenge is above the configured ceiling.
        public static let challengeTooHard = Code(rawValue: "challenge_too_hard")
        /// The new PIN is shorter than the policy allows.
        public static let pinTooShort = Code(rawValue: "pin_too_short")
        /// The new PIN is not digits only.
        public static let pinNotNumeric = Code(rawValue: "pin_not_numeric")
        /// The new PIN is a run of ascending or descending digits.
        public static let pinIsSequence = Code(rawValue: "pin_is_sequence")
        /// One digit repeats too often in the new PIN.
        public static let pinTooManySimilarDigits = Code(rawValue: "pin_too_many_similar_digits")
        /// The new PIN is too common.
        public static let pinBlacklisted = Code(rawValue: "pin_blacklisted")
        /// The PIN was wrong (``SesameError/remainingPINAttempts``).
        public static let wrongPIN = Code(rawValue: "wrong_pin")
        /// The PIN registration was revoked and removed from the device.
        public static let pinDeregistered = Code(rawValue: "pin_deregistered")
        /// No PIN is registered on this device for that account.
        public static let noPINProfile = Code(rawValue: "no_pin_profile")
        /// Biometric unlock is not available or was cancelled.
        public static let biometricsUnavailable = Code(rawValue: "biometrics_unavailable")
        /// The passkey authenticator gave no answer (``SesameError/passkeyFailure``).
        public static let passkeyUnavailable = Code(rawValue: "passkey_unavailable")
        /// The server's certificate has no pinned key (``SesameConfiguration/pinning``); nothing was sent.
        public static let certificatePinMismatch = Code(rawValue: "certificate_pin_mismatch")

        init(_ reason: SesameErrorReason) {
            switch reason {
            case .cancelled: self = .cancelled
            case .ssoUnavailable: self = .ssoUnavailable
            case .requestFailed: self = .requestFailed
            case .authenticationFailed: self = .authenticationFailed
            case .technical(.network): self = .network
            case .technical(.server): self = .serverUnavailable
            case .technical(.malformedResponse): self = .malformedResponse
            case .technical(.storage): self = .storage
            case .technical(.platform): self = .platform
            case .noSession: self = .noSession
            case .invalidIDToken: self = .invalidIDToken
            case .protocolViolation: self = .protocolViolation
            case .invalidConfiguration: self = .invalidConfiguration
            case .stepUpRequired: self = .stepUpRequired
            case .challengeTooHard: self = .challengeTooHard
            case .pinTooShort: self = .pinTooShort
            case .pinNotNumeric: self = .pinNotNumeric
            case .pinIsSequence: self = .pinIsSequence
            case .pinTooManySimilarDigits: self = .pinTooManySimilarDigits
            case .pinBlacklisted: self = .pinBlacklisted
            case .wrongPIN: self = .wrongPIN
            case .pinDeregistered: self = .pinDeregistered
            case .noPINProfile: self = .noPINProfile
            case .biometricsUnavailable: self = .biometricsUnavailable
            case .passkeyUnavailable: self = .passkeyUnavailable
            case .certificatePinMismatch: self = .certificatePinMismatch
            }
        }
    }

    /// What an app does about a failure. New categories may be added; switch with a `default`.
    public struct Category: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The category's name.
        public let rawValue: String
        /// A category by its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The category's name.
        public var description: String { rawValue }

        /// The user cancelled: show nothing.
        public static let cancelled = Category(rawValue: "cancelled")
        /// The user must sign in (again): no session, refused credentials, a revoked PIN, an
        /// unusable sibling session.
        public static let signInRequired = Category(rawValue: "sign_in_required")
        /// The server wants a stronger sign-in for this action: run step-up MFA.
        public static let stepUpRequired = Category(rawValue: "step_up_required")
        /// The user can correct the input: a refused request (see the field errors), a PIN the
        /// policy refuses, a wrong PIN.
        public static let invalidInput = Category(rawValue: "invalid_input")
        /// Not possible right now: the network, the server, a challenge too hard, biometrics or a
        /// passkey not available. Retry later or offer another way.
        public static let unavailable = Category(rawValue: "unavailable")
        /// A fault of the app's set-up, the provider or the device: configuration, protocol,
        /// ID-token validation, storage, platform. Report it; retrying will not help.
        public static let misconfigured = Category(rawValue: "misconfigured")

        init(_ reason: SesameErrorReason) {
            switch reason {
            case .cancelled: self = .cancelled
            case .noSession, .authenticationFailed, .pinDeregistered, .ssoUnavailable: self = .signInRequired
            case .stepUpRequired: self = .stepUpRequired
            case .requestFailed, .pinTooShort, .pinNotNumeric, .pinIsSequence, .pinTooManySimilarDigits, .pinBlacklisted,
                .wrongPIN:
                self = .invalidInput
            case .technical(.network), .technical(.server), .challengeTooHard, .biometricsUnavailable,
                .passkeyUnavailable, .noPINProfile:
                self = .unavailable
            case .technical, .invalidIDToken, .protocolViolation, .invalidConfiguration, .certificatePinMismatch:
                self = .misconfigured
            }
        }
    }
}

/// The failures by the names the SDK throws them with (`throw .cancelled`,
/// `throw .requestFailed(apiError, status: 400)`).
extension SesameError {
    package static let cancelled = SesameError(.cancelled)
    package static let noSession = SesameError(.noSession)
    package static let pinNotNumeric = SesameError(.pinNotNumeric)
    package static let pinIsSequence = SesameError(.pinIsSequence)
    package static let pinBlacklisted = SesameError(.pinBlacklisted)
    package static let pinDeregistered = SesameError(.pinDeregistered)
    package static let noPINProfile = SesameError(.noPINProfile)
    package static let biometricsUnavailable = SesameError(.biometricsUnavailable)

    package static func ssoUnavailable(_ detail: String) -> SesameError { SesameError(.ssoUnavailable(detail)) }
    package static func requestFailed(_ error: APIError, status: Int) -> SesameError {
        SesameError(.requestFailed(error, status: status))
    }
    package static func authenticationFailed(_ error: APIError, status: Int) -> SesameError {
        SesameError(.authenticationFailed(error, status: status))
    }
    package static func technical(_ failure: TechnicalFailure) -> SesameError { SesameError(.technical(failure)) }
    package static func invalidIDToken(_ rule: IDTokenRule, detail: String) -> SesameError {
        SesameError(.invalidIDToken(rule, detail: detail))
    }
    package static func protocolViolation(_ detail: String) -> SesameError { SesameError(.protocolViolation(detail)) }
    package static func invalidConfiguration(_ detail: String) -> SesameError {
        SesameError(.invalidConfiguration(detail))
    }
    package static func stepUpRequired(_ error: APIError) -> SesameError { SesameError(.stepUpRequired(error)) }
    package static func challengeTooHard(difficulty: Int, ceiling: Int) -> SesameError {
        SesameError(.challengeTooHard(difficulty: difficulty, ceiling: ceiling))
    }
    package static func pinTooShort(minimum: Int) -> SesameError { SesameError(.pinTooShort(minimum: minimum)) }
    package static func pinTooManySimilarDigits(maximum: Int) -> SesameError {
        SesameError(.pinTooManySimilarDigits(maximum: maximum))
    }
    package static func wrongPIN(remainingAttempts: Int) -> SesameError {
        SesameError(.wrongPIN(remainingAttempts: remainingAttempts))
    }
    package static func passkeyUnavailable(_ cause: PasskeyAuthenticatorError) -> SesameError {
        SesameError(.passkeyUnavailable(cause))
    }
}
