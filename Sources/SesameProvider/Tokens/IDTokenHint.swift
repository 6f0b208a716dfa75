import Foundation
import SesameStore

/// An `id_token_hint`: an ID token this OP issued earlier, passed back by a relying party as a
/// hint about the End-User's current session, at the authorization endpoint (OIDC Core
/// §3.1.2.1) and at the end-session endpoint (RP-Initiated Logout 1.0 §2).
///
/// Its signature must verify with the ``KeyRing`` and `iss` must be this issuer. Its expiry is
/// not checked: OIDC Core §3.1.2.1 and RP-Initiated Logout §2 both accept a hint whose `exp` has
/// passed, since it is a hint about the session, not a credential. Audience checks depend on
/// the endpoint (``verify(_:issuer:keyRing:audience:)``).
package enum IDTokenHint {
    /// Verifies `token` and returns its claims. With `audience`, the hint must also have been
    /// issued to that client (its `aud` contains it; OIDC Core §3.1.2.1, the RP sends its own
    /// ID token).
    ///
    /// Any failure to verify (malformed JWS, unknown key, bad signature, a payload that is not
    /// an ID token, or keys that cannot be loaded) is ``IDTokenHintError/unverifiable(_:)``:
    /// the hint is refused, never trusted.
    package static func verify(
        _ token: String, issuer: String, keyRing: KeyRing, audience: String? = nil
    ) async throws(IDTokenHintError) -> IDTokenClaims {
        let claims: IDTokenClaims
        do {
            claims = try await keyRing.verify(token, as: IDTokenClaims.self)
        } catch let error as KeyRingError {
            throw .unverifiable(error.description)
        } catch is DecodingError {
            throw .unverifiable("the payload is not an ID token")
        } catch {
            throw .unverifiable("the signature cannot be checked: \(error)")
        }
        guard claims.iss == issuer else { throw .otherIssuer }
        if let audience, claims.aud != audience { throw .otherAudience }
        return claims
    }
}

/// Why an `id_token_hint` was refused. Descriptions are for `error_description` and logs.
package enum IDTokenHintError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a compact JWS signed by one of our published keys, or not an ID token.
    case unverifiable(String)
    /// Signed by us but for another issuer identifier (e.g. the server moved).
    case otherIssuer
    /// Issued to another client than the one asking.
    case otherAudience

    package var description: String {
        switch self {
        case .unverifiable: "id_token_hint is not an ID token issued here."
        case .otherIssuer: "id_token_hint was issued by another issuer."
        case .otherAudience: "id_token_hint was issued to another client."
        }
    }
}
