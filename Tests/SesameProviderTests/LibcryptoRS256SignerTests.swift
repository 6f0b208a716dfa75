import Crypto
import Foundation
import JWTKit
import SesameProtocol
import TestSupport
import Testing
import _CryptoExtras
@testable import SesameProvider

/// RS256 signed by the system's libcrypto (``LibcryptoRS256Signer``): the same octets as
/// swift-crypto's (PKCS#1 v1.5 is deterministic), RFC 7515 A.2's signature from its key, and the
/// key ring signing with it where libcrypto is linked (Linux).
@Suite("RS256 signed by libcrypto")
struct LibcryptoRS256SignerTests {
    /// jwt-kit's (swift-crypto's) RS256 for `key`, the reference.
    static func swiftCrypto(_ key: JWTKit.Insecure.RSA.PrivateKey) async throws -> any JWTAlgorithm {
        let collection = JWTKeyCollection()
        await JWSSignatureCheck.add(rs256: key, kid: "reference", to: collection)
        return try await collection.getKey(for: "reference")
    }

    #if os(Linux)
        @Test("RFC 7515 A.2: libcrypto signs the example's signing input with the example's key to the example's signature")
        func rfc7515Example() async throws {
            let vector = try FixtureFiles.json("vectors/jws-rfc7515-a2-rs256.json")
            let jwk = try #require(vector["jwk_private"] as? [String: Any])
            let key = try JWTKit.Insecure.RSA.PrivateKey(
                modulus: try #require(jwk["n"] as? String), exponent: try #require(jwk["e"] as? String),
                privateExponent: try #require(jwk["d"] as? String))
            let signer = try LibcryptoRS256Signer(try await Self.swiftCrypto(key), key: key)
            let compact = try #require(vector["compact"] as? String)
            let parts = compact.split(separator: ".")
            let signingInput = Array((parts[0] + "." + parts[1]).utf8)
            #expect(Base64URL.encode(try signer.sign(signingInput)) == String(parts[2]))
            #expect(try signer.verify(try #require(Base64URL.decode(String(parts[2]))), signs: signingInput))
        }

        @Test(
            "libcrypto's signatures are swift-crypto's, octet for octet, for every key size and input length",
            arguments: [2048, 3072, 4096])
        func sameOctets(bits: Int) async throws {
            let key = try JWTKit.Insecure.RSA.PrivateKey(
                backing: _RSA.Signing.PrivateKey(keySize: .init(bitCount: bits)))
            let reference = try await Self.swiftCrypto(key)
            let signer = try LibcryptoRS256Signer(reference, key: key)
            for length in [0, 1, 55, 56, 64, 65, 1_000, 65_536, 1 << 20] {
                let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ bits) }
                let signature = try signer.sign(input)
                #expect(signature.count == bits / 8)
                #expect(signature == (try reference.sign(input)), "input of \(length) bytes")
                #expect(try signer.verify(signature, signs: input))
                var flipped = signature
                flipped[flipped.count / 2] ^= 0x01
                #expect(try !signer.verify(flipped, signs: input))
            }
        }

        @Test("20 tasks sign with one key at once: every signature is the reference's")
        func concurrentSigners() async throws {
            let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
            let reference = try await Self.swiftCrypto(key)
            let signer = try LibcryptoRS256Signer(reference, key: key)
            let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<20 {
                    group.addTask {
                        var mismatches = 0
                        for round in 0..<10 {
                            let input = Array("task \(task) round \(round)".utf8)
                            if try signer.sign(input) != reference.sign(input) { mismatches += 1 }
                        }
                        return mismatches
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(mismatches == 0)
            // The contexts the signatures set up were kept, no more than the limit.
            #expect((1...LibcryptoRS256Signer.idleLimit).contains(signer.idleContexts))
        }

        @Test("one signer at a time reuses one signing context, and a kept context signs every input as the reference")
        func keptContext() async throws {
            let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
            let reference = try await Self.swiftCrypto(key)
            let signer = try LibcryptoRS256Signer(reference, key: key)
            #expect(signer.idleContexts == 1, "the probe's context is kept")
            for length in [0, 1, 64, 700, 65_536] {
                let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
                #expect(try signer.sign(input) == (try reference.sign(input)), "input of \(length) bytes")
                #expect(signer.idleContexts == 1)
            }
        }

        @Test("the key ring signs RS256 with libcrypto, and its tokens verify with the published key")
        func keyRingUsesLibcrypto() async throws {
            try await withKeyRing { ring, _, _, _ in
                try await ring.ensureKeys()
                let snapshot = try await ring.currentSnapshot()
                let rsa = try #require(snapshot.signingKey(for: .rs256, at: Date()))
                #expect(snapshot.algorithms[rsa.kid] is LibcryptoRS256Signer)
                let es = try #require(snapshot.signingKey(for: .es256, at: Date()))
                #expect(!(snapshot.algorithms[es.kid] is LibcryptoRS256Signer))

                let token = try await ring.sign(KeyRingTestPayload(sub: "alice"), algorithm: "RS256", type: "JWT")
                #expect(try await ring.verify(token, as: KeyRingTestPayload.self).sub.value == "alice")
                let parts = token.split(separator: ".")
                let published = try JWTKit.Insecure.RSA.PublicKey(
                    modulus: try #require(rsa.jwk.n), exponent: try #require(rsa.jwk.e))
                let check = JWTKeyCollection()
                await JWSSignatureCheck.add(rs256: published, kid: "published", to: check)
                #expect(
                    try await check.getKey(for: "published").verify(
                        try #require(Base64URL.decode(String(parts[2]))), signs: Array((parts[0] + "." + parts[1]).utf8)))
            }
        }
    #endif

    @Test("an algorithm other than RS256 is refused with a reason, so the key ring keeps swift-crypto's")
    func notRS256() async throws {
        let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let collection = JWTKeyCollection()
        await collection.add(rsa: key, digestAlgorithm: .sha384, kid: "rs384")
        let rs384 = try await collection.getKey(for: "rs384")
        #expect(throws: LibcryptoRS256Signer.Unavailable.self) { try LibcryptoRS256Signer(rs384, key: key) }
        do {
            _ = try LibcryptoRS256Signer(rs384, key: key)
        } catch {
            #expect(error.reason.contains("RS384"))
        }
    }
}
