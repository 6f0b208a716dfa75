import Foundation
import SesameProtocol

/// The public key of a DPoP proof's `jwk` header (RFC 9449 §4.2), checked against the proof's
/// `alg` and turned into a verifier and its RFC 7638 thumbprint.
///
/// The key type and curve must fit `alg` (RFC 7518 §3.1: RS*/PS* an RSA key, ES256/384/512 a
/// P-256/384/521 key, EdDSA an Ed25519 key, RFC 8037 §3.1), and no private member may be present
/// (§4.3 item 7: `d`, the RSA primes and CRT values, `oth`, or a symmetric `k`).
struct DPoPPublicKey: Sendable {
    let verifier: SignatureVerifier
    let thumbprint: String

    static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    init(header: [UInt8], alg: String) throws(DPoPProofRefusal) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
            let jwk = object["jwk"] as? [String: Any]
        else { throw DPoPProofRefusal(.key, "the DPoP proof header has no jwk object") }
        if let member = Self.privateMembers.first(where: { jwk[$0] != nil }) {
            throw DPoPProofRefusal(.key, "the proof's jwk contains the private member '\(member)'; send the public key only")
        }
        func bytes(_ name: String) throws(DPoPProofRefusal) -> [UInt8] {
            guard let text = jwk[name] as? String, text.utf8.count <= 1100, let data = Base64URL.decode(text) else {
                throw DPoPProofRefusal(.key, "the proof's jwk has no valid base64url '\(name)'")
            }
            return Array(data)
        }
        let kty = jwk["kty"] as? String
        let crv = jwk["crv"] as? String
        let expected: (kty: String, crv: String?)
        switch alg {
        case "ES256": expected = ("EC", "P-256")
        case "ES384": expected = ("EC", "P-384")
        case "ES512": expected = ("EC", "P-521")
        case "EdDSA": expected = ("OKP", "Ed25519")
        default: expected = ("RSA", nil)
        }
        guard kty == expected.kty, expected.crv == nil || crv == expected.crv else {
            throw DPoPProofRefusal(
                .key, "alg \(alg) needs a \(expected.kty)\(expected.crv.map { " \($0)" } ?? "") key in jwk, not \(kty ?? "(no kty)") \(crv ?? "")")
        }
        switch expected.kty {
        case "EC":
            let x = try bytes("x")
            let y = try bytes("y")
            guard let verifier = SignatureVerifier.make(alg: alg, n: nil, e: nil, x: x, y: y) else {
                throw DPoPProofRefusal(.key, "the proof's jwk is not a point on \(expected.crv ?? "")")
            }
            self.verifier = verifier
            thumbprint = JWKThumbprint.ec(curve: expected.crv ?? "", x: x, y: y)
        case "OKP":
            let x = try bytes("x")
            guard let verifier = SignatureVerifier.make(alg: alg, n: nil, e: nil, x: x, y: nil) else {
                throw DPoPProofRefusal(.key, "the proof's jwk is not an Ed25519 public key")
            }
            self.verifier = verifier
            thumbprint = JWKThumbprint.okp(curve: "Ed25519", x: x)
        default:
            let n = try bytes("n")
            let e = try bytes("e")
            guard let verifier = SignatureVerifier.make(alg: alg, n: n, e: e, x: nil, y: nil) else {
                throw DPoPProofRefusal(.key, "the proof's jwk is not an RSA public key of at least 2048 bits")
            }
            self.verifier = verifier
            thumbprint = JWKThumbprint.rsa(modulus: n, exponent: e)
        }
    }
}
