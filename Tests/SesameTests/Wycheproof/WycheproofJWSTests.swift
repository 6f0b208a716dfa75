import Foundation
import TestSupport
import Testing

@testable import Sesame

/// Every applicable Wycheproof signature vector through the SDK's JWS signature step, the one
/// ``IDTokenValidator`` uses for ID tokens: the group's public key as a JWK goes through
/// ``JWKSet/parse(_:)``, then ``JWKSet/verifySignature(_:over:kid:alg:)`` checks the vector's
/// signature over its message (which stands for the JWS signing input).
@Suite("Wycheproof: SDK JWS signature verification")
struct WycheproofJWSTests {
    struct Family: Sendable, CustomTestStringConvertible {
        let alg: String
        let file: String
        /// The file's valid / invalid / acceptable vectors, so a changed fixture is noticed.
        let counts: (valid: Int, invalid: Int, acceptable: Int)
        let isRSA: Bool

        var testDescription: String { "\(alg) (\(file))" }
    }

    static let families = [
        // RFC 7518 §3.4: P-256 and SHA-256, the signature the 64 octets R || S (IEEE P1363).
        Family(alg: "ES256", file: "ecdsa_secp256r1_sha256_p1363_test.json", counts: (173, 89, 0), isRSA: false),
        // RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-256.
        Family(alg: "RS256", file: "rsa_signature_2048_sha256_test.json", counts: (9, 249, 1), isRSA: true),
        // RFC 7518 §3.5: RSASSA-PSS, SHA-256, MGF1 with SHA-256, a 32-octet salt.
        Family(alg: "PS256", file: "rsa_pss_2048_sha256_mgf1_32_test.json", counts: (63, 45, 0), isRSA: true),
        // RFC 8037 §3.1: Ed25519.
        Family(alg: "EdDSA", file: "ed25519_test.json", counts: (88, 63, 0), isRSA: false),
    ]

    @Test("every vector gets Wycheproof's verdict", arguments: families)
    func family(_ family: Family) async throws {
        let file = try WycheproofFile.load(family.file)
        var verdicts = WycheproofVerdicts()
        for (index, group) in file.testGroups.enumerated() {
            var jwk = try #require(group.jwk, "group \(index) of \(family.file) has no usable public key")
            let kid = "wycheproof-\(index)"
            jwk["kid"] = kid
            let keys = try JWKSet.parse(JSONSerialization.data(withJSONObject: ["keys": [jwk]]))
            let keyWithinJOSE = !family.isRSA || (group.keySize ?? 0) >= 2048
            for test in group.tests {
                let message = try #require(Hex.bytes(test.msg), "tcId \(test.tcId): msg is not hex")
                let signature = try #require(Hex.bytes(test.sig), "tcId \(test.tcId): sig is not hex")
                let verified: Bool
                do {
                    try keys.verifySignature(signature, over: message, kid: kid, alg: family.alg)
                    verified = true
                } catch {
                    verified = false
                }
                verdicts.record(
                    test, verified: verified, keyLoaded: keys.count == 1, keyWithinJOSE: keyWithinJOSE,
                    path: "SDK \(family.alg)")
            }
        }
        #expect(verdicts.total == file.numberOfTests)
        #expect(verdicts.valid == family.counts.valid)
        #expect(verdicts.invalid == family.counts.invalid)
        #expect(verdicts.acceptable == family.counts.acceptable)
        #expect(verdicts.wrong == 0)
    }
}
