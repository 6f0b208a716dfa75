import Foundation

/// Which rule of RFC 9068 §4 (or RFC 6750) a presented access token broke. A struct of named
/// values rather than an enum, so a rule added later does not break an API's `switch`.
public struct AccessTokenRule: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The rule's stable name, as logged (`expired`, `audience`, …).
    public let rawValue: String
    /// A rule by its name; the named constants below are the ones this library reports.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The rule's name.
    public var description: String { rawValue }

    /// No `Authorization: Bearer` credentials were sent (RFC 6750 §3.1: a challenge without an
    /// error code).
    public static let missing = AccessTokenRule(rawValue: "missing")
    /// The request carried the token wrongly: two schemes, an empty token (RFC 6750 §3.1
    /// `invalid_request`).
    public static let request = AccessTokenRule(rawValue: "request")
    /// Not a compact JWS, not JSON, a claim of the wrong type, or a required claim absent.
    public static let malformed = AccessTokenRule(rawValue: "malformed")
    /// The JOSE `typ` is not `at+jwt` (RFC 9068 §4 step 1): an ID token or another JWT.
    public static let type = AccessTokenRule(rawValue: "type")
    /// `alg` is `none`, symmetric or not allowed (RFC 9068 §4 step 5, RFC 8725 §3.1).
    public static let algorithm = AccessTokenRule(rawValue: "algorithm")
    /// No key of the issuer's JWKS has the token's `kid`, even after one refetch.
    public static let unknownKey = AccessTokenRule(rawValue: "unknown_key")
    /// The signature does not verify.
    public static let signature = AccessTokenRule(rawValue: "signature")
    /// `iss` is not the configured issuer (RFC 9068 §4 step 3).
    public static let issuer = AccessTokenRule(rawValue: "issuer")
    /// `aud` does not name this API (RFC 9068 §4 step 4).
    public static let audience = AccessTokenRule(rawValue: "audience")
    /// `exp` has passed, beyond the leeway (RFC 9068 §4 step 6).
    public static let expired = AccessTokenRule(rawValue: "expired")
    /// `nbf` or `iat` is in the future, beyond the leeway.
    public static let notYetValid = AccessTokenRule(rawValue: "not_yet_valid")
    /// The token is valid but lacks a scope the request needs (RFC 6750 §3.1
    /// `insufficient_scope`).
    public static let scope = AccessTokenRule(rawValue: "scope")
    /// The issuer's keys could not be fetched: the token cannot be checked now (not its fault).
    public static let keysUnavailable = AccessTokenRule(rawValue: "keys_unavailable")
    /// The token is bound to a DPoP key (RFC 9449 §7.1) and the request's proof is missing,
    /// refused by a rule of §4.3, replayed or signed by another key; or a bound token was sent
    /// as a bearer token, or a bearer token with the DPoP scheme (`invalid_dpop_proof` or
    /// `invalid_token` in a `WWW-Authenticate: DPoP` challenge).
    public static let dpopProof = AccessTokenRule(rawValue: "dpop_proof")
    /// The scheme does not fit the token (RFC 9449 §7.1-7.2): a DPoP-bound token sent as
    /// `Bearer`, or a bearer token sent as `DPoP` (`invalid_token` in a `DPoP` challenge).
    public static let dpopBinding = AccessTokenRule(rawValue: "dpop_binding")
    /// The API asks for server-provided nonces (RFC 9449 §9) and the proof has none, or one that
    /// is not the API's or has expired (`use_dpop_nonce`, with a fresh nonce in `DPoP-Nonce`).
    public static let dpopNonce = AccessTokenRule(rawValue: "dpop_nonce")
    /// The token is bound to a TLS client certificate (RFC 8705 §3, `cnf` `x5t#S256`) and the
    /// request's connection presented none, or another (`invalid_token`, 401).
    public static let certificateBinding = AccessTokenRule(rawValue: "certificate_binding")
    /// The DPoP replay store could not be asked (its database is down): the proof cannot be
    /// checked now, not its fault (503).
    public static let replayCheckUnavailable = AccessTokenRule(rawValue: "replay_check_unavailable")
}

/// Why an access token was refused, with what an API answers: the HTTP status and the RFC 6750
/// error code of its `WWW-Authenticate` challenge.
public struct AccessTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule that failed.
    public var rule: AccessTokenRule
    /// What failed, for the API's logs. Never contains the token.
    public var message: String
    /// For ``AccessTokenRule/scope``: the scopes the request needed.
    public var requiredScopes: [String]
    /// The authentication scheme of the challenge: `Bearer` (RFC 6750 §3), or `DPoP` (RFC 9449
    /// §7.1) when the token is DPoP-bound or was sent with that scheme.
    public var scheme: String = "Bearer"
    /// For ``AccessTokenRule/dpopNonce``: the nonce to send in the `DPoP-Nonce` header (RFC 9449 §9).
    public var dpopNonce: String?

    /// A refusal by `rule`, with a message for logs (never the token) and, for a missing
    /// scope, the scopes the request needed.
    public init(_ rule: AccessTokenRule, _ message: String, requiredScopes: [String] = []) {
        self.rule = rule
        self.message = message
        self.requiredScopes = requiredScopes
    }

    /// The rule and the message, for logs.
    public var description: String { "access token refused (\(rule)): \(message)" }

    /// The RFC 6750 §3.1 error code: `nil` when no credentials were sent.
    public var errorCode: String? {
        switch rule {
        case .missing: nil
        case .request: "invalid_request"
        case .scope: "insufficient_scope"
        case .keysUnavailable, .replayCheckUnavailable: "temporarily_unavailable"
        case .dpopProof: "invalid_dpop_proof"
        case .dpopNonce: "use_dpop_nonce"
        default: "invalid_token"
        }
    }

    /// The HTTP status RFC 6750 §3.1 pairs with the code: 400, 401 or 403; 503 when the keys
    /// could not be fetched.
    public var status: Int {
        switch rule {
        case .request: 400
        case .scope: 403
        case .keysUnavailable, .replayCheckUnavailable: 503
        default: 401
        }
    }
}
