import Crypto
import Foundation
import SesameProtocol

/// The DPoP key of the benchmark's client and proofs signed with it (RFC 9449 §4.2): one per
/// request, made before each iteration's clock starts, so the load measures the server's check.
enum BenchmarkDPoPProofs {
    static let key = P256.Signing.PrivateKey()
    /// More proofs than one 3-second iteration can use (about 1,100 refreshes a second here).
    static let perIteration = 12_000

    static var thumbprint: String {
        let raw = key.publicKey.rawRepresentation
        return JWKThumbprint.ec(curve: "P-256", x: Array(raw.prefix(32)), y: Array(raw.suffix(32)))
    }

    /// A file of `count` fresh proofs for `POST url`, one per line.
    static func file(count: Int, url: String) throws -> URL {
        let raw = key.publicKey.rawRepresentation
        let jwk = #"{"crv":"P-256","kty":"EC","x":"\#(Base64URL.encode(raw.prefix(32)))","y":"\#(Base64URL.encode(raw.suffix(32)))"}"#
        let header = Base64URL.encode(Data(#"{"alg":"ES256","jwk":\#(jwk),"typ":"dpop+jwt"}"#.utf8))
        let iat = Int(Date().timeIntervalSince1970)
        var lines: [String] = []
        lines.reserveCapacity(count)
        for _ in 0..<count {
            let claims = #"{"htm":"POST","htu":"\#(url)","iat":\#(iat),"jti":"\#(FixtureTokens.token(byteCount: 16))"}"#
            let input = header + "." + Base64URL.encode(Data(claims.utf8))
            let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
            lines.append(input + "." + Base64URL.encode(signature))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-dpop-\(UUID().uuidString).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        return file
    }
}
