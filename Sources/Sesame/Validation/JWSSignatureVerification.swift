import Foundation

extension JWKSet {
    /// The signature step of JWS validation with the provider's public keys (RFC 7515 §5.2 step
    /// 8; OIDC Core §3.1.3.7 steps 6–8 for ID tokens): the key named by `kid`, or any key allowing
    /// `alg` when the header has no `kid` (OIDC Core §10.1.1), must verify `signature` over
    /// `signingInput`, the octets `ASCII(BASE64URL(header) || '.' || BASE64URL(payload))`.
    ///
    /// The primitive is the jwt-kit verifier ``parse(_:)`` built for the key and `alg`: RS*
    /// RSASSA-PKCS1-v1_5 (RFC 7518 §3.3), PS* RSASSA-PSS with MGF1 and a salt as long as the hash
    /// (§3.5), ES* ECDSA with the fixed-length `R || S` signature (§3.4), EdDSA Ed25519 (RFC 8037
    /// §3.1). ``IDTokenValidator`` calls this for every asymmetric `alg`; HMAC is checked there.
    func verifySignature(_ signature: [UInt8], over signingInput: some DataProtocol, kid: String?, alg: String)
        throws(SesameError)
    {
        switch verifiers(kid: kid, alg: alg) {
        case .unknownKey:
            throw .invalidIDToken(.unknownKey, detail: "no JWKS key with kid \(kid ?? "(none)") for \(alg)")
        case .algorithmNotAllowed:
            throw .invalidIDToken(.algorithm, detail: "the key \(kid ?? "(no kid)") may not be used with \(alg)")
        case .found(let verifiers):
            for verifier in verifiers where (try? verifier.verify(signature, signs: signingInput)) == true {
                return
            }
            throw .invalidIDToken(.signature, detail: "the \(alg) signature does not verify")
        }
    }
}
