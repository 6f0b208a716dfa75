import Crypto
import Foundation

/// The names and small computations of OAuth 2.0 Demonstrating Proof of Possession (DPoP,
/// RFC 9449), shared by the SDK that sends proofs, the server that binds tokens to their keys,
/// and the resource-server library that checks both.
public enum DPoP {
    /// §4.1: the request header carrying the proof JWT.
    public static let proofHeader = "DPoP"
    /// §8.1: the response header carrying a server-provided nonce.
    public static let nonceHeader = "DPoP-Nonce"
    /// §5: the `token_type` of a DPoP-bound access token, and §7.1 the authorization scheme.
    public static let scheme = "DPoP"
    /// §4.2: the `typ` header of a proof JWT.
    public static let proofType = "dpop+jwt"
    /// §10: the authorization request parameter binding the code to a key's thumbprint.
    public static let jktParameter = "dpop_jkt"
    /// §5.1, §7.1: the error for a missing, malformed or refused proof.
    public static let invalidProofError = "invalid_dpop_proof"
    /// §8: the error asking the client to retry with the nonce in `DPoP-Nonce`.
    public static let useNonceError = "use_dpop_nonce"
    /// The asymmetric JWS algorithms proofs may use (§4.2: never `none`, never a MAC), the
    /// discovery field `dpop_signing_alg_values_supported` (§5.1).
    public static let signingAlgorithms = [
        "ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512", "EdDSA",
    ]

    /// §4.2 `ath`: the base64url SHA-256 of the ASCII access token a proof goes with.
    public static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.sha256(of: accessToken)
    }
}
