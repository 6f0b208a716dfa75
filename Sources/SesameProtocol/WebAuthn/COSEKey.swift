import Foundation

/// A credential public key in COSE_Key form (RFC 9052 §7, RFC 9053 §2 and §7; WebAuthn Level 3
/// §6.5.1.1), as an authenticator writes it into its attested credential data. Only the key
/// types WebAuthn relying parties meet are read, each with the members its algorithm needs:
/// - EC2 (kty 2) with ES256 (alg -7) on P-256 (crv 1): `x` and `y`, 32 bytes each;
/// - OKP (kty 1) with EdDSA (alg -8) on Ed25519 (crv 6): `x`, 32 bytes;
/// - RSA (kty 3) with RS256 (alg -257): `n` (at least 2048 bits) and `e`.
/// Anything else is refused with the member at fault (``COSEKeyError``).
public enum COSEKey: Sendable, Equatable {
    /// EC2 (kty 2) on P-256 for ES256 (RFC 9053 §2.1, §7.1): the big-endian coordinates,
    /// 32 bytes each.
    case es256(x: Data, y: Data)
    /// OKP (kty 1) on Ed25519 for EdDSA (RFC 9053 §2.2, §7.2): `x` is the 32-byte public key
    /// (RFC 8032).
    case ed25519(x: Data)
    /// RSA (kty 3, RFC 8230 §4) for RS256 (RFC 8812 §2): the big-endian modulus `n` and exponent `e`.
    case rs256(n: Data, e: Data)

    /// COSE algorithm identifiers (IANA "COSE Algorithms").
    public enum Algorithm: Int64, Sendable, CaseIterable {
        /// -7: ECDSA with SHA-256 (RFC 9053 §2.1).
        case es256 = -7
        /// -8: EdDSA (RFC 9053 §2.2); Ed25519 is the only curve read.
        case edDSA = -8
        /// -257: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8812 §2).
        case rs256 = -257
    }

    /// The key's COSE `alg` (label 3): what its signatures are verified as.
    public var algorithm: Algorithm {
        switch self {
        case .es256: .es256
        case .ed25519: .edDSA
        case .rs256: .rs256
        }
    }

    /// Reads a COSE_Key map.
    package init(_ item: CBOR) throws(COSEKeyError) {
        guard case .map = item else { throw .notAMap }
        func bytes(_ label: Int64, _ name: String) throws(COSEKeyError) -> Data {
            let key: CBOR = label >= 0 ? .unsigned(UInt64(label)) : .negative(UInt64(-1 - label))
            guard case .bytes(let value) = item[key] else { throw .missing(name) }
            return value
        }
        guard let kty = item[.unsigned(1)]?.int else { throw .missing("kty (1)") }
        guard let algValue = item[.unsigned(3)]?.int else { throw .missing("alg (3)") }
        guard let alg = Algorithm(rawValue: algValue) else { throw .unsupportedAlgorithm(algValue) }
        switch (kty, alg) {
        case (2, .es256):
            guard item[.negative(0)]?.int == 1 else { throw .wrongCurve("crv (-1) must be P-256 (1)") }
            let x = try bytes(-2, "x (-2)")
            let y = try bytes(-3, "y (-3)")
            guard x.count == 32, y.count == 32 else { throw .badLength("x and y of P-256 are 32 bytes each") }
            self = .es256(x: x, y: y)
        case (1, .edDSA):
            guard item[.negative(0)]?.int == 6 else { throw .wrongCurve("crv (-1) must be Ed25519 (6)") }
            let x = try bytes(-2, "x (-2)")
            guard x.count == 32 else { throw .badLength("x of Ed25519 is 32 bytes") }
            self = .ed25519(x: x)
        case (3, .rs256):
            let n = try bytes(-1, "n (-1)")
            let e = try bytes(-2, "e (-2)")
            guard n.count >= 256, n.count <= 512, !e.isEmpty, e.count <= 8 else {
                throw .badLength("RSA keys have a 2048 to 4096-bit n and a short e")
            }
            self = .rs256(n: n, e: e)
        default:
            throw .keyTypeMismatch(kty: kty, alg: algValue)
        }
    }

    /// The COSE_Key map (canonical member order when encoded with ``CBOREncoder``).
    package var cbor: CBOR {
        switch self {
        case .es256(let x, let y):
            .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(6)), (.negative(0), .unsigned(1)),
                  (.negative(1), .bytes(x)), (.negative(2), .bytes(y))])
        case .ed25519(let x):
            .map([(.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(7)), (.negative(0), .unsigned(6)),
                  (.negative(1), .bytes(x))])
        case .rs256(let n, let e):
            .map([(.unsigned(1), .unsigned(3)), (.unsigned(3), .negative(256)), (.negative(0), .bytes(n)),
                  (.negative(1), .bytes(e))])
        }
    }
}

/// Why a COSE_Key was refused.
public enum COSEKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key is not a CBOR map.
    case notAMap
    /// A required member is absent or of the wrong type; names it, e.g. `x (-2)`.
    case missing(String)
    /// `alg` is none of ES256 (-7), EdDSA (-8) and RS256 (-257).
    case unsupportedAlgorithm(Int64)
    /// `kty` is not the key type `alg` needs (2 for ES256, 1 for EdDSA, 3 for RS256).
    case keyTypeMismatch(kty: Int64, alg: Int64)
    /// `crv` is not the curve the algorithm needs (P-256 for ES256, Ed25519 for EdDSA).
    case wrongCurve(String)
    /// A coordinate or RSA member has the wrong size for its algorithm.
    case badLength(String)

    /// The rule broken, for logs and error messages.
    public var description: String {
        switch self {
        case .notAMap: "the credential public key is not a COSE_Key map"
        case .missing(let member): "the COSE_Key lacks \(member)"
        case .unsupportedAlgorithm(let alg): "COSE algorithm \(alg) is not supported (ES256 -7, EdDSA -8, RS256 -257)"
        case .keyTypeMismatch(let kty, let alg): "key type \(kty) does not go with algorithm \(alg)"
        case .wrongCurve(let detail): detail
        case .badLength(let detail): detail
        }
    }
}
