/// JSON Web Key thumbprints (RFC 7638): the base64url SHA-256 of the key's required members in
/// lexicographic order, without whitespace (§3.2, §3.3). DPoP binds tokens to this value
/// (RFC 9449 §6 `cnf.jkt`, §10 `dpop_jkt`).
///
/// Members are taken as their raw bytes and encoded again, so two encodings of the same key
/// cannot give two thumbprints.
public enum JWKThumbprint {
    /// An elliptic-curve key (`kty` `EC`, §3.2): `crv`, `kty`, `x`, `y`.
    public static func ec(curve: String, x: [UInt8], y: [UInt8]) -> String {
        digest(#"{"crv":"\#(curve)","kty":"EC","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"}"#)
    }

    /// An RSA key (§3.2): `e`, `kty`, `n`, with leading zero bytes removed (RFC 7518 §6.3.1.1).
    public static func rsa(modulus n: [UInt8], exponent e: [UInt8]) -> String {
        let n = Array(n.drop { $0 == 0 })
        let e = Array(e.drop { $0 == 0 })
        return digest(#"{"e":"\#(Base64URL.encode(e))","kty":"RSA","n":"\#(Base64URL.encode(n))"}"#)
    }

    /// An octet key pair (`kty` `OKP`, RFC 8037 §2): `crv`, `kty`, `x`.
    public static func okp(curve: String, x: [UInt8]) -> String {
        digest(#"{"crv":"\#(curve)","kty":"OKP","x":"\#(Base64URL.encode(x))"}"#)
    }

    private static func digest(_ json: String) -> String {
        Base64URL.sha256(of: json)
    }
}
