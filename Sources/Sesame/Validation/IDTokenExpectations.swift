import Foundation
import SesameProtocol

/// What an ID token must match (OIDC Core §3.1.3.7): the values the client knows from its
/// configuration and from the authorization request it sent.
public struct IDTokenExpectations: Sendable {
    /// The discovered issuer; `iss` must equal it exactly (step 2).
    public var issuer: String
    /// Our `client_id`; `aud` must contain it (step 3).
    public var clientID: String
    /// Further audiences the app trusts (step 3: untrusted extra audiences are rejected).
    public var trustedAudiences: Set<String>
    /// The `nonce` sent in the authorization request; `nil` skips the check (refresh responses,
    /// OIDC Core §12.2).
    public var nonce: String?
    /// The `max_age` sent; requires a recent `auth_time` (step 13).
    public var maxAge: Int?
    /// The `acr_values` requested; the returned `acr` must be one of them (step 12).
    public var acrValues: [String]?
    /// The `claims` request sent (OIDC Core §5.5); its `id_token` member is checked: an
    /// essential `acr` with values must be met (§5.5.1.1), a `sub` with a `value` must match
    /// (§5.5.1). `nil` or members without such constraints check nothing.
    public var claims: ClaimsRequest?
    /// The access token issued with the ID token, for the `at_hash` check.
    public var accessToken: String?
    /// Clock-skew tolerance for `exp`, `iat` and `auth_time`.
    public var leeway: TimeInterval
    /// How old `iat` may be (step 10, "client-defined bounds").
    public var maxIssuedAtAge: TimeInterval
    /// The current time (device clock corrected by the learned server offset).
    public var now: Date

    /// Expectations for one ID token; each parameter sets the property of the same name. The SDK
    /// builds these itself; build one to call ``IDTokenValidator`` directly. `now` should be the
    /// server-corrected time (``ServerClockOffset/serverNow(_:)``).
    public init(
        issuer: String, clientID: String, nonce: String? = nil, maxAge: Int? = nil,
        acrValues: [String]? = nil, claims: ClaimsRequest? = nil, accessToken: String? = nil,
        trustedAudiences: Set<String> = [], leeway: TimeInterval = 60,
        maxIssuedAtAge: TimeInterval = 600, now: Date = Date()
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.trustedAudiences = trustedAudiences
        self.nonce = nonce
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.claims = claims
        self.accessToken = accessToken
        self.leeway = leeway
        self.maxIssuedAtAge = maxIssuedAtAge
        self.now = now
    }
}
