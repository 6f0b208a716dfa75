import Foundation
import JWTKit
import SesameProtocol
import SesameStore

/// The JWT access token payload of RFC 9068 §2.2 (`iss`, `exp`, `aud`, `sub`, `client_id`,
/// `iat`, `jti`, plus `scope`, `auth_time`, `acr`, `amr`), with three private claims:
/// `sid` (browser session) and `fid` (refresh-token family), so that revoking the family makes
/// the access token inactive at `/userinfo` and `/introspect`; and `userinfo_claims`, the user
/// claims a `claims` request parameter asked the UserInfo endpoint for (OIDC Core §5.5), only
/// when there are any.
///
/// The header `typ` is `at+jwt` (RFC 9068 §2.1), which keeps ID tokens from being accepted as
/// access tokens. `aud` is the issuer URL (Sesame's own APIs are the resource server), or the
/// registered APIs the token is for (RFC 8707, ``TokenAudience``): a single value is written as a
/// string, several as an array (RFC 7519 §4.1.3).
package struct AccessTokenClaims: JWTPayload, Equatable {
    package var iss: String
    /// The user id, or the client id for client_credentials tokens (RFC 9068 §2.2).
    package var sub: String
    package var aud: AudienceClaim
    package var exp: Int
    package var iat: Int
    package var jti: String
    package var clientID: String
    package var scope: String
    package var authTime: Int?
    package var acr: String?
    package var amr: [String]?
    package var sid: String?
    package var fid: String?
    package var userinfoClaims: [String]?
    /// RFC 9449 §6.1 `cnf.jkt`: the thumbprint of the DPoP key the token is bound to; `nil` for a
    /// bearer token.
    package var cnf: TokenConfirmation?
    /// `gty`: `client_credentials` on a token issued to a client for itself, with no user
    /// (issue #44). Its `sub` is the client id (RFC 9068 §2.2), never a user.
    package var gty: String?

    package enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, jti, scope, acr, amr, sid, fid, cnf, gty
        case clientID = "client_id"
        case authTime = "auth_time"
        case userinfoClaims = "userinfo_claims"
    }

    package var scopes: Set<String> { Set(ScopeList.parse(scope)) }

    /// The DPoP key thumbprint the token is bound to, if any.
    package var boundThumbprint: String? { cnf?.jkt }

    /// The client certificate thumbprint the token is bound to (RFC 8705 §3.1), if any.
    package var boundCertificate: String? { cnf?.certificateThumbprint }

    /// The `gty` of a token without a user.
    package static let clientOnlyGrantType = "client_credentials"

    /// Whether the token names no user: issued to a client for itself (`gty`), or, for a token
    /// issued before `gty` existed, without the `auth_time` every user's token carries.
    package var isClientOnly: Bool { gty != nil || authTime == nil }

    /// Claim checks are made by ``AccessTokenVerifier``; JWTKit only checks the signature.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension AccessTokenClaims: DirectJSONPayload {
    /// The members of ``CodingKeys``, in their order, as `encode(to:)` writes them.
    package func directJSON() -> [UInt8]? {
        var json = JSONObjectWriter(capacity: 384)
        json.member("iss", iss)
        json.member("sub", sub)
        json.member("aud", oneOrMany: aud.value)
        json.member("exp", exp)
        json.member("iat", iat)
        json.member("jti", jti)
        json.member("client_id", clientID)
        json.member("scope", scope)
        json.member("auth_time", ifPresent: authTime)
        json.member("acr", ifPresent: acr)
        json.member("amr", ifPresent: amr)
        json.member("sid", ifPresent: sid)
        json.member("fid", ifPresent: fid)
        json.member("userinfo_claims", ifPresent: userinfoClaims)
        if let cnf {
            json.member("cnf") { confirmation in
                confirmation.member("jkt", ifPresent: cnf.jkt)
                confirmation.member("x5t#S256", ifPresent: cnf.certificateThumbprint)
            }
        }
        json.member("gty", ifPresent: gty)
        return json.finish()
    }
}

/// The confirmation claim of a sender-constrained token (RFC 7800 §3.1): the DPoP member `jkt`
/// (RFC 9449 §6.1) or the certificate member `x5t#S256` (RFC 8705 §3.1).
package struct TokenConfirmation: Codable, Equatable, Sendable {
    package var jkt: String?
    package var certificateThumbprint: String?

    package init(jkt: String) { self.jkt = jkt }

    package init(certificateThumbprint: String) { self.certificateThumbprint = certificateThumbprint }

    package enum CodingKeys: String, CodingKey {
        case jkt
        case certificateThumbprint = "x5t#S256"
    }
}
