import SesameStore

/// JWS algorithms the server signs with (RFC 7518 §3.1). ID tokens default to `RS256`
/// (OIDC Core §15.1 requires RS256 support); `ES256` is offered per client.
public enum SigningAlgorithm: String, Sendable, CaseIterable, Codable {
    case rs256 = "RS256"
    case es256 = "ES256"
}
