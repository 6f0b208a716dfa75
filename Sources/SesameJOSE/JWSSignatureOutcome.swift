import Foundation

/// The outcome of the signature step of JWS validation (RFC 7515 §5.2 step 8) against a
/// ``JWKSet``. Each validator turns a failure into its own error: the SDK's ID-token rules, the
/// resource server's RFC 6750 `invalid_token`.
package enum JWSSignatureOutcome: Sendable, Equatable {
    case valid
    /// No key has the header's `kid` (or, without a `kid`, no key at all): the set may be stale.
    case unknownKey
    /// The key exists but may not verify this `alg` (its type or its own `alg` rules it out).
    case algorithmNotAllowed
    /// A key allowing `alg` was found and the signature does not verify with it.
    case invalidSignature
}

extension JWKSet {
    /// Verifies `signature` over `signingInput`, the octets
    /// `ASCII(BASE64URL(header) || '.' || BASE64URL(payload))`, with the key named by `kid`, or
    /// with any key allowing `alg` when the header has no `kid` (OIDC Core §10.1.1).
    ///
    /// The primitive is the ``SignatureVerifier`` built for the key and `alg` when the set was
    /// parsed: RS* RSASSA-PKCS1-v1_5 (RFC 7518 §3.3), PS* RSASSA-PSS with MGF1 and a salt as long
    /// as the hash (§3.5), ES* ECDSA with the fixed-length `R || S` signature (§3.4), EdDSA
    /// Ed25519 (RFC 8037 §3.1). Symmetric algorithms never reach here: a set holds no `oct` keys.
    package func check(_ signature: [UInt8], overBytes signingInput: ArraySlice<UInt8>, kid: String?, alg: String)
        -> JWSSignatureOutcome
    {
        switch verifiers(kid: kid, alg: alg) {
        case .unknownKey: return .unknownKey
        case .algorithmNotAllowed: return .algorithmNotAllowed
        case .found(let verifiers):
            let valid = signingInput.withUnsafeBytes { input in
                verifiers.contains { $0.verify(signature, over: input) }
            }
            return valid ? .valid : .invalidSignature
        }
    }

    /// ``check(_:overBytes:kid:alg:)`` for a signing input in any byte collection (tests, vectors).
    package func check(_ signature: [UInt8], over signingInput: some DataProtocol, kid: String?, alg: String)
        -> JWSSignatureOutcome
    {
        let bytes: ArraySlice<UInt8> = ArraySlice(signingInput)
        return check(signature, overBytes: bytes, kid: kid, alg: alg)
    }
}
