import Foundation
import SesameProtocol

/// What happened, in full: the SDK's own record of a failure, with every detail. Package-internal:
/// apps read ``SesameError/code``, ``SesameError/category`` and the typed properties, so a new
/// reason never breaks an app's `switch`.
// `indirect`: payloads are boxed so the error stays one pointer wide. With the larger unboxed
// layout, Swift 6.3 crashed (bad refcount in "outlined copy of SesameError") when a
// `throws(SesameError)` async function's error was caught through an untyped `catch ... as`.
package indirect enum SesameErrorReason: Error, Sendable, CustomStringConvertible {
    /// The user closed the browser or cancelled sign-in.
    case cancelled
    /// A sibling app's sign-in cannot be used (Native SSO): the device session ended, the
    /// shared material is stale, or the provider or this client does not take part. The stale
    /// entry was removed from the shared group; sign in another way.
    case ssoUnavailable(String)
    /// The server rejected the request (HTTP 400 and other 4xx except 401): the decoded API error,
    /// with its field errors, is attached.
    case requestFailed(APIError, status: Int)
    /// Authentication failed (HTTP 401, `invalid_client`, `invalid_grant` at the token endpoint,
    /// or an authorization error redirect such as `access_denied` / `login_required`).
    case authenticationFailed(APIError, status: Int)
    /// Network, server (5xx), storage or platform failure. Retrying later may help.
    case technical(TechnicalFailure)
    /// No signed-in account (or the requested account does not exist).
    case noSession
    /// The ID token failed a validation rule; the rule is named.
    case invalidIDToken(IDTokenRule, detail: String)
    /// A protocol rule was broken by the provider or redirect (state mismatch, missing `iss`,
    /// wrong issuer in discovery, non-https issuer, ...).
    case protocolViolation(String)
    /// The app's configuration is unusable (bad JSON, missing client id, redirect URI, ...).
    case invalidConfiguration(String)
    /// The server asks for more authentication (step-up); continue with the MFA flow.
    case stepUpRequired(APIError)
    /// The server asked for a proof-of-work challenge harder than
    /// ``SesameConfiguration/maximumChallengeDifficulty``; it was not attempted. The server asks
    /// for less when the pressure from this network drops: retry later.
    case challengeTooHard(difficulty: Int, ceiling: Int)
    /// The new PIN has fewer digits than the policy's minimum.
    case pinTooShort(minimum: Int)
    /// The new PIN is not made of the digits 0–9 only (or is over 12 digits long).
    case pinNotNumeric
    /// The new PIN's digits all ascend or all descend (`12345`, `98765`).
    case pinIsSequence
    /// One digit appears more than `maximum` times in the new PIN.
    case pinTooManySimilarDigits(maximum: Int)
    /// The new PIN is on the policy's blacklist of common PINs.
    case pinBlacklisted
    /// The PIN was wrong; `remainingAttempts` more before the registration is revoked.
    case wrongPIN(remainingAttempts: Int)
    /// The PIN registration is gone (too many wrong PINs, or removed): the device's PIN material
    /// was deleted and ``SesameEvent/pinDeregistered(_:)`` sent. Sign in again and register a PIN.
    case pinDeregistered
    /// No PIN profile on this device (or none with the given id).
    case noPINProfile
    /// Biometric unlock is not available (no hardware, none enrolled, not enabled for the
    /// profile) or the check was cancelled or failed: ask for the PIN. Never counts as a wrong PIN.
    case biometricsUnavailable
    /// The passkey authenticator did not answer (cancelled, no passkey here, no user
    /// verification): the cause says which. Nothing was sent to the server.
    case passkeyUnavailable(PasskeyAuthenticatorError)
    /// The server's certificate chain has no pinned key (``SesameConfiguration/pinning``): the
    /// connection was closed before anything was sent. Not retried.
    case certificatePinMismatch(host: String, presentedPins: [String])

    package var description: String {
        switch self {
        case .cancelled:
            "Sign-in was cancelled."
        case .requestFailed(let error, let status):
            "The server rejected the request (HTTP \(status)): \(error)"
        case .authenticationFailed(let error, let status):
            "Authentication failed (HTTP \(status)): \(error). Sign in again."
        case .technical(let failure):
            "A technical error occurred: \(failure). Check the connection and retry."
        case .noSession:
            "No signed-in account. Sign in first."
        case .invalidIDToken(let rule, let detail):
            "The ID token failed validation (\(rule.rawValue)): \(detail)"
        case .protocolViolation(let detail):
            "The identity provider broke the protocol: \(detail)"
        case .invalidConfiguration(let detail):
            "The Sesame configuration is invalid: \(detail)"
        case .stepUpRequired(let error):
            "Additional verification is required: \(error)"
        case .pinTooShort(let minimum): "The PIN needs at least \(minimum) digits."
        case .pinNotNumeric: "The PIN may only contain digits (at most 12)."
        case .pinIsSequence: "The PIN must not be a run of ascending or descending digits."
        case .pinTooManySimilarDigits(let maximum): "No digit may appear more than \(maximum) times in the PIN."
        case .pinBlacklisted: "This PIN is too common; choose another."
        case .wrongPIN(let remaining): "Wrong PIN; \(remaining) attempt\(remaining == 1 ? "" : "s") left."
        case .pinDeregistered: "The PIN registration was revoked and removed from this device; sign in again and set a new PIN."
        case .noPINProfile: "No PIN is registered on this device for that account; sign in and register one."
        case .ssoUnavailable(let detail):
            "Signing in through the other app's session is not possible (\(detail)); sign in with the browser or a password instead."
        case .biometricsUnavailable: "Biometric unlock is not available or was cancelled; unlock with the PIN."
        case .passkeyUnavailable(let cause): "No passkey answer: \(cause)."
        case .certificatePinMismatch(let host, _):
            "The server \(host) presented a certificate whose public key matches none of the app's pins, so the connection was closed and nothing was sent. Either the network intercepts the connection, or the server changed keys without a pin for the new key in the app: check the network, and the pins (with their backup) in the configuration."
        case .challengeTooHard(let difficulty, let ceiling):
            "The server asked for a security check of \(difficulty) bits, more than the configured ceiling of \(ceiling); it was not attempted. Retry later, or raise maximumChallengeDifficulty."
        }
    }

    /// The API error attached to server-side failures, if any.
    package var apiError: APIError? {
        switch self {
        case .requestFailed(let error, _), .authenticationFailed(let error, _),
            .stepUpRequired(let error):
            error
        default:
            nil
        }
    }
}

/// The cause of a ``SesameError/Category/unavailable`` or ``SesameError/Category/misconfigured``
/// technical failure (``SesameError/technicalFailure``).
public enum TechnicalFailure: Sendable, CustomStringConvertible {
    /// The request did not reach the server or no response came back.
    case network(String)
    /// The server answered 5xx (with its API error when it sent one).
    case server(status: Int, APIError?)
    /// The server answered something that is not the expected JSON.
    case malformedResponse(String)
    /// Reading or writing the credential store failed.
    case storage(String)
    /// A platform facility failed (browser, keychain, random source...).
    case platform(String)

    /// The kind of failure and its detail (e.g. `network: ...`, `server error HTTP 503`), for logs.
    public var description: String {
        switch self {
        case .network(let detail): "network: \(detail)"
        case .server(let status, let error):
            "server error HTTP \(status)" + (error.map { ": \($0)" } ?? "")
        case .malformedResponse(let detail): "malformed response: \(detail)"
        case .storage(let detail): "storage: \(detail)"
        case .platform(let detail): "platform: \(detail)"
        }
    }
}

/// The OpenID Connect Core §3.1.3.7 ID token validation rules (numbered as in the spec), each
/// reported by name when it fails.
public enum IDTokenRule: String, Sendable, CaseIterable {
    /// Not a compact JWS with a JSON payload.
    case malformed
    /// §3.1.3.7 step 2: `iss` must equal the discovered issuer exactly.
    case issuer
    /// Step 3: `aud` must contain the client id; no untrusted extra audiences.
    case audience
    /// Steps 4–5: with several audiences `azp` must be present and equal the client id.
    case authorizedParty
    /// Steps 6–8: the signature must verify with a JWKS key of an allowed algorithm.
    case signature
    /// `alg` must be an asymmetric algorithm we accept (never `none`; HMAC only with a secret).
    case algorithm
    /// Step 9: `exp` must be in the future (with leeway).
    case expired
    /// Step 10: `iat` must not be too far from now.
    case issuedAt
    /// Step 11: `nonce` must equal the one sent.
    case nonce
    /// Step 12: `acr` must be acceptable when requested, through `acr_values` or as an essential
    /// claim with values in the `claims` parameter (§5.5.1.1).
    case acr
    /// Step 13: `auth_time` must be present and recent enough when `max_age` was sent.
    case authTime
    /// §3.1.3.8 / §3.2.2.9: `at_hash` must match the access token when present.
    case accessTokenHash
    /// §2: `sub` must be present.
    case subject
    /// §5.5.1: `sub` must equal the `value` requested for it in the `claims` parameter.
    case requestedSubject
    /// §5.3.2: the userinfo `sub` must equal the ID token `sub`.
    case userInfoSubject
    /// The `kid` names no key in the JWKS, even after one refetch.
    case unknownKey
}
