import TestSupport
import Crypto
import Foundation
import JWTKit
import SesameProtocol
import Testing
import StoreTesting
@testable import SesameProvider
import SesameStore

/// A minimal token payload; expiry is checked against the real clock by jwt-kit.
struct KeyRingTestPayload: JWTPayload, Equatable {
    var sub: SubjectClaim
    var exp: ExpirationClaim

    init(sub: String) {
        self.sub = SubjectClaim(value: sub)
        self.exp = ExpirationClaim(value: Date().addingTimeInterval(24 * 3600))
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// The JOSE header of a compact JWS.
func joseHeader(_ token: String) throws -> [String: String] {
    let segment = try #require(token.split(separator: ".").first)
    let data = try #require(Base64URL.decode(String(segment)))
    return try JSONDecoder().decode([String: String].self, from: data)
}

/// Runs `body` with a key ring over a fresh store whose clock the test controls.
func withKeyRing<T>(
    _ body: (KeyRing, SQLIdentityStore, ManualClock, StoreSandbox) async throws -> T
) async throws -> T {
    try await withSandboxStore { store, sandbox in
        let clock = ManualClock(Date())
        let ring = KeyRing(
            store: store, masterKey: try await sandbox.dataDirectory.masterKey(), logger: StoreSamples.logger,
            now: { clock.now() })
        return try await body(ring, store, clock, sandbox)
    }
}

@Suite("KeyRing: creation, JWKS, signing")
struct KeyRingTests {
    @Test("ensureKeys creates one RS256 and one ES256 key, once, and the same kids after a restart")
    func ensureKeysIdempotent() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let masterKey = try await sandbox.dataDirectory.masterKey()
        let store = try await sandbox.open()
        let ring = KeyRing(store: store, masterKey: masterKey, logger: StoreSamples.logger)
        try await ring.ensureKeys()
        try await ring.ensureKeys()
        let keys = try await ring.keys()
        #expect(keys.map(\.algorithm).sorted() == ["ES256", "RS256"])
        #expect(try await store.signingKeys().count == 2)
        // Private keys are stored sealed, never as PEM.
        #expect(keys.allSatisfy { !$0.sealedPrivateKey.contains("PRIVATE KEY") })
        try await store.close()

        let reopened = try await sandbox.open()
        let again = KeyRing(store: reopened, masterKey: masterKey, logger: StoreSamples.logger)
        try await again.ensureKeys()
        #expect(try await again.keys().map(\.kid) == keys.map(\.kid))
        try await reopened.close()
    }

    @Test("the JWKS lists the public keys with kty, kid, use, alg and their parameters only")
    func jwksContent() async throws {
        try await withKeyRing { ring, _, _, _ in
            try await ring.ensureKeys()
            let data = try await ring.jwks()
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let keys = try #require(object["keys"] as? [[String: Any]])
            #expect(keys.count == 2)
            let kids = Set(try await ring.keys().map(\.kid))
            #expect(Set(keys.compactMap { $0["kid"] as? String }) == kids)
            let rsa = try #require(keys.first { $0["kty"] as? String == "RSA" })
            #expect(rsa["alg"] as? String == "RS256")
            #expect(rsa["use"] as? String == "sig")
            #expect(rsa["e"] as? String == "AQAB")
            let n = try #require(rsa["n"] as? String)
            let modulus = try #require(Base64URL.decode(n))
            #expect(modulus.count == 256)
            let ec = try #require(keys.first { $0["kty"] as? String == "EC" })
            #expect(ec["alg"] as? String == "ES256")
            #expect(ec["crv"] as? String == "P-256")
            let x = try #require(ec["x"] as? String)
            let y = try #require(ec["y"] as? String)
            #expect(Base64URL.decode(x)?.count == 32)
            #expect(Base64URL.decode(y)?.count == 32)
            for key in keys {
                for privateMember in ["d", "p", "q", "dp", "dq", "qi"] { #expect(key[privateMember] == nil) }
            }
            // jwt-kit reads our JWKS and verifies our tokens with it.
            let token = try await ring.sign(KeyRingTestPayload(sub: "alice"), algorithm: "RS256", type: "JWT")
            let verifier = try await JWTKeyCollection().add(jwksJSON: String(decoding: data, as: UTF8.self))
            let payload = try await verifier.verify(token, as: KeyRingTestPayload.self)
            #expect(payload.sub.value == "alice")
            #expect(try await ring.jwks() == data)
        }
    }

    @Test("sign and verify with RS256 and ES256: right kid, alg and typ")
    func signAndVerify() async throws {
        try await withKeyRing { ring, _, _, _ in
            try await ring.ensureKeys()
            let keys = try await ring.keys()
            for (algorithm, type) in [("RS256", "JWT"), ("ES256", "at+jwt")] {
                let token = try await ring.sign(KeyRingTestPayload(sub: "bob"), algorithm: algorithm, type: type)
                let header = try joseHeader(token)
                #expect(header["alg"] == algorithm)
                #expect(header["typ"] == type)
                #expect(header["kid"] == keys.first { $0.algorithm == algorithm }?.kid)
                let payload = try await ring.verify(token, as: KeyRingTestPayload.self)
                #expect(payload.sub.value == "bob")

                // A changed payload no longer verifies.
                var parts = token.split(separator: ".").map(String.init)
                let forged = KeyRingTestPayload(sub: "mallory")
                parts[1] = Base64URL.encode(try JSONEncoder().encode(forged))
                await #expect(throws: KeyRingError.invalidSignature) {
                    _ = try await ring.verify(parts.joined(separator: "."), as: KeyRingTestPayload.self)
                }
            }
            await #expect(throws: KeyRingError.unsupportedAlgorithm("HS256")) {
                _ = try await ring.sign(KeyRingTestPayload(sub: "x"), algorithm: "HS256", type: "JWT")
            }
        }
    }

    @Test("tokens of a foreign key, malformed tokens and alg swaps are rejected")
    func rejectsForeignAndMalformed() async throws {
        try await withKeyRing { ring, _, _, _ in
            try await ring.ensureKeys()
            try await withKeyRing { other, _, _, _ in
                try await other.ensureKeys()
                let foreign = try await other.sign(KeyRingTestPayload(sub: "x"), algorithm: "ES256", type: "JWT")
                let kid = try #require(try joseHeader(foreign)["kid"])
                await #expect(throws: KeyRingError.unknownKey(kid: kid)) {
                    _ = try await ring.verify(foreign, as: KeyRingTestPayload.self)
                }
            }
            await #expect(throws: KeyRingError.self) {
                _ = try await ring.verify("not-a-jwt", as: KeyRingTestPayload.self)
            }
            let token = try await ring.sign(KeyRingTestPayload(sub: "x"), algorithm: "ES256", type: "JWT")
            var header = try joseHeader(token)
            header["alg"] = "RS256"
            var parts = token.split(separator: ".").map(String.init)
            parts[0] = Base64URL.encode(try JSONEncoder().encode(header))
            await #expect(throws: KeyRingError.self) {
                _ = try await ring.verify(parts.joined(separator: "."), as: KeyRingTestPayload.self)
            }
        }
    }

    @Test("keys sealed with another master key are refused with a clear error")
    func wrongMasterKey() async throws {
        try await withKeyRing { ring, store, _, _ in
            try await ring.ensureKeys()
            let intruder = KeyRing(store: store, masterKey: SymmetricKey(size: .bits256), logger: StoreSamples.logger)
            await #expect {
                try await intruder.ensureKeys()
            } throws: { error in
                guard case KeyRingError.unreadableKey = error else { return false }
                return "\(error)".contains("master.key")
            }
        }
    }
}
