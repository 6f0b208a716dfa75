import Foundation
import JWTKit
import SesameProtocol
import SesameStore

/// The ID token payload, OpenID Connect Core §2 (claims) and §3.1.3.6 (`at_hash`).
///
/// User claims asked for with the `claims` request parameter (OIDC Core §5.5) are written
/// beside the protocol claims (``userClaims``); they are not read back.
///
/// `verify(using:)` only proves the signature (done by JWTKit); claim checks are explicit at
/// each use, because RP-Initiated Logout accepts an expired `id_token_hint` (§2).
package struct IDTokenClaims: JWTPayload, Equatable {
    package var iss: String
    package var sub: String
    /// The client id (we always issue a single audience).
    package var aud: String
    /// OIDC Core §2: authorized party, the client id.
    package var azp: String
    package var exp: Int
    package var iat: Int
    package var authTime: Int
    package var nonce: String?
    package var acr: String?
    package var amr: [String]?
    /// The session id (OIDC Front-/Back-Channel Logout `sid`): the browser session, or the
    /// Native SSO device session (§3.4.1).
    package var sid: String?
    package var atHash: String?
    /// Native SSO 1.0 §3.4.1: binds the token to the device secret (``DeviceSecret/hash(_:)``).
    package var dsHash: String? = nil
    /// Standard claims of the user (§5.1) released into this token; their `sub` is the same.
    package var userClaims: StandardClaims? = nil

    package enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, exp, iat, nonce, acr, amr, sid
        case authTime = "auth_time"
        case atHash = "at_hash"
        case dsHash = "ds_hash"
    }

    package func encode(to encoder: any Encoder) throws {
        try userClaims?.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(iss, forKey: .iss)
        try container.encode(sub, forKey: .sub)
        try container.encode(aud, forKey: .aud)
        try container.encode(azp, forKey: .azp)
        try container.encode(exp, forKey: .exp)
        try container.encode(iat, forKey: .iat)
        try container.encode(authTime, forKey: .authTime)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(acr, forKey: .acr)
        try container.encodeIfPresent(amr, forKey: .amr)
        try container.encodeIfPresent(sid, forKey: .sid)
        try container.encodeIfPresent(atHash, forKey: .atHash)
        try container.encodeIfPresent(dsHash, forKey: .dsHash)
    }

    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension IDTokenClaims: DirectJSONPayload {
    /// As `encode(to:)` writes it; `nil` (`JSONEncoder`) when user claims are released into the
    /// token, whose members (an `address` object, custom claims) only their `Encodable` knows.
    package func directJSON() -> [UInt8]? {
        guard userClaims == nil else { return nil }
        var json = JSONObjectWriter(capacity: 320)
        json.member("iss", iss)
        json.member("sub", sub)
        json.member("aud", aud)
        json.member("azp", azp)
        json.member("exp", exp)
        json.member("iat", iat)
        json.member("auth_time", authTime)
        json.member("nonce", ifPresent: nonce)
        json.member("acr", ifPresent: acr)
        json.member("amr", ifPresent: amr)
        json.member("sid", ifPresent: sid)
        json.member("at_hash", ifPresent: atHash)
        json.member("ds_hash", ifPresent: dsHash)
        return json.finish()
    }
}
