import Foundation
import JWTKit

/// The ID token payload, OpenID Connect Core §2 (claims) and §3.1.3.6 (`at_hash`).
///
/// `verify(using:)` only proves the signature (done by JWTKit); claim checks are explicit at
/// each use, because RP-Initiated Logout accepts an expired `id_token_hint` (§2).
struct IDTokenClaims: JWTPayload, Equatable {
    var iss: String
    var sub: String
    /// The client id (we always issue a single audience).
    var aud: String
    /// OIDC Core §2: authorized party, the client id.
    var azp: String
    var exp: Int
    var iat: Int
    var authTime: Int
    var nonce: String?
    var acr: String?
    var amr: [String]?
    /// Browser session id (OIDC Front-/Back-Channel Logout `sid`).
    var sid: String?
    var atHash: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, exp, iat, nonce, acr, amr, sid
        case authTime = "auth_time"
        case atHash = "at_hash"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
