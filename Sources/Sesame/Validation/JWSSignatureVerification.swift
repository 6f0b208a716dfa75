import Foundation
import SesameJOSE

extension JWKSet {
    /// The signature step of ID-token validation (OIDC Core §3.1.3.7 steps 6–8) with the
    /// provider's public keys: ``check(_:over:kid:alg:)`` with its outcome as an ID-token rule.
    /// ``IDTokenValidator`` calls this for every asymmetric `alg`; HMAC is checked there.
    func verifySignature(_ signature: [UInt8], over signingInput: some DataProtocol, kid: String?, alg: String)
        throws(SesameError)
    {
        let bytes: ArraySlice<UInt8> = ArraySlice(signingInput)
        try verifySignature(signature, overBytes: bytes, kid: kid, alg: alg)
    }

    /// The same over the token's own bytes (the hot path: no copy).
    func verifySignature(_ signature: [UInt8], overBytes signingInput: ArraySlice<UInt8>, kid: String?, alg: String)
        throws(SesameError)
    {
        switch check(signature, overBytes: signingInput, kid: kid, alg: alg) {
        case .valid:
            return
        case .unknownKey:
            throw .invalidIDToken(.unknownKey, detail: "no JWKS key with kid \(kid ?? "(none)") for \(alg)")
        case .algorithmNotAllowed:
            throw .invalidIDToken(.algorithm, detail: "the key \(kid ?? "(no kid)") may not be used with \(alg)")
        case .invalidSignature:
            throw .invalidIDToken(.signature, detail: "the \(alg) signature does not verify")
        }
    }
}
