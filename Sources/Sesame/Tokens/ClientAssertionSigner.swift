import Crypto
import Foundation
import JWTKit
import SesameProtocol

/// `private_key_jwt` client authentication (RFC 7523 §2.2, OIDC Core §9): the app signs a short
/// JWT with its own P-256 key instead of sending a secret. The key is created on first use and
/// kept in the app's ``CredentialStore`` (encrypted file or Keychain), never anywhere else; the
/// operator registers its public half (``publicJWKS()``, `sesame client add --jwks`).
///
/// Each assertion: `iss` = `sub` = the client id, `aud` = the token endpoint URL, a fresh
/// random `jti`, `iat` now and `exp` 60 s later (RFC 7523 §3), ES256 with the key's `kid`.
actor ClientAssertionSigner {
    /// RFC 7523 §2.2 `client_assertion_type`.
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// Where the private key is kept in the app's store.
    static let storeKey = "sesame.client-key"
    static let lifetime: TimeInterval = 60

    private let store: any CredentialStore
    private let clientID: String
    private var loaded: (key: P256.Signing.PrivateKey, kid: String, keys: JWTKeyCollection)?

    init(store: any CredentialStore, clientID: String) {
        self.store = store
        self.clientID = clientID
    }

    private struct StoredKey: Codable {
        var kid: String
        /// The raw 32-byte private scalar, base64url.
        var d: String
    }

    private struct Claims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var jti: String
        var iat: Int
        var exp: Int
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A signed assertion for `audience` (the token endpoint URL).
    func assertion(audience: String, now: Date) async throws(SesameError) -> String {
        let (_, kid, keys) = try await key()
        let issuedAt = Int(now.timeIntervalSince1970)
        let claims = Claims(
            iss: clientID, sub: clientID, aud: audience, jti: SecureRandom.token(byteCount: 16), iat: issuedAt,
            exp: issuedAt + Int(Self.lifetime))
        do {
            return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
        } catch {
            throw .technical(.platform("cannot sign the client assertion: \(error)"))
        }
    }

    /// The JSON Web Key Set (RFC 7517 §5) of the public key, to register with the provider.
    func publicJWKS() async throws(SesameError) -> String {
        let (key, kid, _) = try await key()
        let point = key.publicKey.x963Representation  // 0x04 || X || Y
        let jwk: [String: String] = [
            "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": kid,
            "x": Base64URL.encode(point.dropFirst().prefix(32)), "y": Base64URL.encode(point.suffix(32)),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(["keys": [jwk]]) else {
            throw .technical(.malformedResponse("cannot encode the public key"))
        }
        return String(decoding: data, as: UTF8.self)
    }

    private func key() async throws(SesameError) -> (P256.Signing.PrivateKey, String, JWTKeyCollection) {
        if let loaded { return loaded }
        let key: P256.Signing.PrivateKey
        let kid: String
        do {
            if let data = try await store.load(Self.storeKey),
                let stored = try? JSONDecoder().decode(StoredKey.self, from: data),
                let raw = Base64URL.decode(stored.d), let existing = try? P256.Signing.PrivateKey(rawRepresentation: raw)
            {
                key = existing
                kid = stored.kid
            } else {
                key = P256.Signing.PrivateKey()
                kid = Base64URL.encode(SHA256.hash(data: key.publicKey.x963Representation).prefix(12))
                let stored = StoredKey(kid: kid, d: Base64URL.encode(key.rawRepresentation))
                try await store.save(try JSONEncoder().encode(stored), for: Self.storeKey)
            }
        } catch let error as CredentialStoreError {
            throw .technical(.storage("the client key: \(error)"))
        } catch {
            throw .technical(.storage("the client key: \(error)"))
        }
        let keys = JWTKeyCollection()
        do {
            await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: JWKIdentifier(string: kid))
        } catch {
            throw .technical(.platform("cannot use the client key: \(error)"))
        }
        loaded = (key, kid, keys)
        return (key, kid, keys)
    }
}
