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

    package func generate(_ algorithm: SigningAlgorithm, createdAt: Date, activatesAt: Date) throws
        -> SigningKeyRecord
    {
        let pem: String
        switch algorithm {
        case .rs256:
            pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation
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
