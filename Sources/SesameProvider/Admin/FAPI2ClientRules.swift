import SesameProtocol
import SesameStore

/// The registration rules of a FAPI 2.0 client (FAPI 2.0 Security Profile, final, §5.3.2 for
/// the authorization server, §5.4 for algorithms): checked when the client is registered, so a
/// FAPI client can never be stored in a form the profile forbids. The rules that apply to each
/// request (PKCE, code lifetime, assertion audience, refresh without rotation) are enforced where
/// those requests are handled; docs/fapi2.md maps every rule to its test.
enum FAPI2ClientRules {
    /// The signature algorithms the profile allows that the key ring signs with (§5.4.1: PS256,
    /// ES256 or EdDSA; never RS256).
    static let algorithms: Set<String> = [SigningAlgorithm.es256.rawValue]

    /// Checks `record` against the profile and switches on what it requires.
    static func apply(to record: inout ClientRecord) throws(ClientValidation.Issue) {
        // §5.3.2.1 item 3: confidential clients only; item 6: private_key_jwt or mutual TLS
        // (RFC 8705 §2), never a shared secret.
        let method = record.tokenEndpointAuthMethod
        guard record.secretHash == nil, method == .privateKeyJWT || method.isMutualTLS else {
            throw ClientValidation.Issue(
                field: "token_endpoint_auth_method",
                reason: "a FAPI 2.0 client authenticates with private_key_jwt, tls_client_auth or self_signed_tls_client_auth (FAPI 2.0 section 5.3.2.1): register its public keys (--jwks-file) or its certificate subject, and no secret")
        }
        guard algorithms.contains(record.idTokenSigningAlg), algorithms.contains(record.accessTokenSigningAlg) else {
            throw ClientValidation.Issue(
                field: "id_token_signed_response_alg",
                reason: "FAPI 2.0 section 5.4 forbids RS256: use ES256 for ID tokens and access tokens")
        }
        // §5.3.2.1 item 2: pushed authorization requests only; item 4: sender-constrained
        // access tokens: bound to the client certificate for an mTLS client that asked for it
        // (RFC 8705 §3), otherwise DPoP.
        record.requirePushedRequests = true
        if !(method.isMutualTLS && record.certificateBoundAccessTokens) { record.dpopBoundAccessTokens = true }
        record.securityProfile = .fapi2
    }
}
