import Crypto
import Foundation
import TestSupport
import JWTKit
import Testing
@testable import SesameProvider

/// Every applicable Wycheproof vector through the server's JWS signature step, the one
/// ``KeyRing/verify(_:as:)`` runs for access tokens and `id_token_hint`: the group's public key
/// registered the way the key ring registers its keys (``JWSSignatureCheck/add(rs256:kid:to:)``,
/// ``JWSSignatureCheck/add(es256:kid:to:)``), then ``JWSSignatureCheck/verify(_:over:alg:key:kid:with:)``
/// checks the vector's signature over its message (standing for the JWS signing input). The
/// server signs only with RS256 and ES256, so only those families apply.
@Suite("Wycheproof: server access-token signature verification")
struct WycheproofAccessTokenTests {
    struct Family: Sendable, CustomTestStringConvertible {
        let algorithm: SigningAlgorithm
        let file: String
        let counts: (valid: Int, invalid: Int, acceptable: Int)
        var testDescription: String { "\(algorithm.rawValue) (\(file))" }
    }

    static let families = [
        Family(algorithm: .es256, file: "ecdsa_secp256r1_sha256_p1363_test.json", counts: (173, 89, 0)),
        Family(algorithm: .rs256, file: "rsa_signature_2048_sha256_test.json", counts: (9, 249, 1)),
    ]

    @Test("every vector gets Wycheproof's verdict", arguments: families)
    func family(_ family: Family) async throws {
        let file = try WycheproofFile.load(family.file)
        var verdicts = WycheproofVerdicts()
        for (index, group) in file.testGroups.enumerated() {
            let kid = "wycheproof-\(index)"
            let collection = JWTKeyCollection()
            var keyLoaded = true
            switch family.algorithm {
            case .rs256:
                if let pem = group.publicKeyPem, let key = try? Insecure.RSA.PublicKey(pem: pem) {
                    await JWSSignatureCheck.add(rs256: key, kid: JWKIdentifier(string: kid), to: collection)
                } else {
                    keyLoaded = false
                }
            case .es256:
                if let pem = group.publicKeyPem, let key = try? ES256PublicKey(pem: pem) {
                    await JWSSignatureCheck.add(es256: key, kid: JWKIdentifier(string: kid), to: collection)
                } else {
                    keyLoaded = false
                }
            }
            let verifier = keyLoaded ? try? await collection.getKey(for: JWKIdentifier(string: kid)) : nil
            for test in group.tests {
                let message = try #require(Hex.bytes(test.msg), "tcId \(test.tcId): msg is not hex")
                let signature = try #require(Hex.bytes(test.sig), "tcId \(test.tcId): sig is not hex")
                var verified = false
                if let verifier {
                    do {
                        try JWSSignatureCheck.verify(
                            signature, over: message, alg: family.algorithm.rawValue, key: family.algorithm, kid: kid,
                            with: verifier)
                        verified = true
                    } catch {}
                }
                verdicts.record(
                    test, verified: verified, keyLoaded: verifier != nil,
                    keyWithinJOSE: family.algorithm != .rs256 || (group.keySize ?? 0) >= 2048,
                    path: "server \(family.algorithm.rawValue)")
            }
        }
        #expect(verdicts.total == file.numberOfTests)
        #expect(verdicts.valid == family.counts.valid)
        #expect(verdicts.invalid == family.counts.invalid)
        #expect(verdicts.acceptable == family.counts.acceptable)
        #expect(verdicts.wrong == 0)
    }

    @Test("a token whose header names another algorithm than its key is refused before the signature")
    func algorithmSubstitution() async throws {
        let key = ES256PrivateKey()
        let collection = JWTKeyCollection()
        await JWSSignatureCheck.add(es256: key, kid: "k", to: collection)
        let verifier = try await collection.getKey(for: "k")
        #expect(throws: KeyRingError.self) {
            try JWSSignatureCheck.verify([UInt8](), over: [UInt8](), alg: "RS256", key: .es256, kid: "k", with: verifier)
        }
    }
}
