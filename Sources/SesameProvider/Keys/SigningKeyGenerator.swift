import SesameStore
import Foundation
import JWTKit
import _CryptoExtras
import Crypto

/// Creates signing keys: RSA 2048 (`_RSA.Signing.PrivateKey`, RFC 7518 §3.3 requires ≥ 2048
/// bits) for RS256 and P-256 for ES256, as PKCS#8 PEM sealed with the master key.
/// RSA generation is slow; it happens only at first start and on rotation.
package struct SigningKeyGenerator: Sendable {
    package let sealer: KeySealer
    /// Makes an RSA-2048 private key as PKCS#8 PEM; `nil`: swift-crypto's.
    package var rsaKeySource: RSAKeySource?

    package init(sealer: KeySealer, rsaKeySource: RSAKeySource? = nil) {
        self.sealer = sealer
        self.rsaKeySource = rsaKeySource
    }

    package func generate(_ algorithm: SigningAlgorithm, createdAt: Date, activatesAt: Date) async throws
        -> SigningKeyRecord
    {
        let pem: String
        switch algorithm {
        case .rs256:
            if let made = try await rsaKeySource?.makeKey() {
                pem = made
            } else {
                pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation
            }
        case .es256:
            pem = P256.Signing.PrivateKey().pemRepresentation
        }
        let (_, jwk) = try SigningKeyMaterial.parse(pem: pem, algorithm: algorithm)
        return SigningKeyRecord(
            kid: jwk.kid, algorithm: algorithm.rawValue,
            sealedPrivateKey: try sealer.seal(pem, kid: jwk.kid), createdAt: createdAt,
            activatesAt: activatesAt)
    }
}

/// Where new RSA-2048 signing keys come from, when not from swift-crypto: the tests' servers
/// take OpenSSL's (a debug build's BoringSSL, compiled without optimization, spent a fifth of
/// the suite's CPU finding primes, once for each of its hundreds of servers; docs/testing.md).
/// The key is parsed and checked like any other (``SigningKeyMaterial/parse(pem:algorithm:)``).
package struct RSAKeySource: Sendable {
    /// An RSA-2048 private key, PKCS#8 PEM; `nil` to fall back to swift-crypto.
    package var makeKey: @Sendable () async throws -> String?

    package init(makeKey: @escaping @Sendable () async throws -> String?) {
        self.makeKey = makeKey
    }
}
