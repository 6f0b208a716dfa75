import Foundation
import TestSupport
import SesameProtocol
import Testing

@testable import Sesame

/// RFC test vectors from `Tests/Fixtures/vectors`, run through the SDK's own code paths.
@Suite("Vectors")
struct VectorTests {
    @Test("PKCE S256 matches RFC 7636 Appendix B")
    func pkceAppendixB() throws {
        let vector = try Vectors.load("pkce-rfc7636-appendix-b.json")
        let verifier = try #require(vector["code_verifier"] as? String)
        let pkce = try PKCE(verifier: verifier)
        #expect(pkce.challenge == vector["code_challenge"] as? String)
        #expect(PKCE.method == vector["code_challenge_method"] as? String)
    }

    @Test(
        "public-key JWS vectors verify through JWKSet and IDTokenValidator",
        arguments: [
            "jws-rfc7515-a2-rs256.json", "jws-rfc7515-a3-es256.json", "jws-rfc7520-4.1-rs256.json",
            "jws-rfc7520-4.3-es512.json", "jws-rfc8037-a4-ed25519.json",
        ])
    func publicKeyVector(_ name: String) async throws {
        let vector = try Vectors.load(name)
        let compact = try #require(vector["compact"] as? String)
        let jwk = try #require(vector["jwk_public"] as? [String: Any])
        let keys = try JWKSet.parse(JWKSJSON.data([jwk]))
        #expect(keys.count == 1)
        let validator = IDTokenValidator()
        let (header, payload) = try validator.verifySignature(compact, keys: keys)
        #expect(header.alg == vector["alg"] as? String)
        #expect(String(decoding: payload, as: UTF8.self) == vector["payload_utf8"] as? String)

        // One flipped bit in the signature must fail.
        let parts = compact.split(separator: ".").map(String.init)
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[signature.count / 2] ^= 0x01
        let forged = parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
        #expect(throws: SesameError.self) { try validator.verifySignature(forged, keys: keys) }
        do {
            _ = try validator.verifySignature(forged, keys: keys)
        } catch {
            #expect(error.rule == .signature)
        }
    }

    @Test("HMAC vectors are rejected without a client secret", arguments: [
        "jws-rfc7515-a1-hs256.json", "jws-rfc7520-4.4-hs256.json",
    ])
    func hmacVectorRejected(_ name: String) async throws {
        let vector = try Vectors.load(name)
        let compact = try #require(vector["compact"] as? String)
        let jwk = try #require(vector["jwk_public"] as? [String: Any])
        // The symmetric JWK is skipped: a JWKS never supplies an HMAC key.
        let keys = try JWKSet.parse(JWKSJSON.data([jwk]))
        #expect(keys.count == 0)
        do {
            _ = try IDTokenValidator().verifySignature(compact, keys: keys)
            Issue.record("HMAC token accepted without a client secret")
        } catch {
            #expect(error.rule == .algorithm)
        }
    }
}

@Suite("JOSE encoding")
struct JOSEEncodingTests {
    @Test("base64url bytes matches the reference for every length")
    func base64URLBytesMatchesTheReferenceForEveryLength() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let encoded = Base64URL.encode(bytes)
            #expect(Base64URL.decode(bytes: ArraySlice(Array(encoded.utf8))) == bytes, "length \(length)")
        }
    }

    @Test("base64url bytes rejects foreign characters")

    func base64URLBytesRejectsForeignCharacters() {
        for bad in ["ab+c", "ab/c", "abc=", "a", "ab cd", "abcd\u{7F}"] {
            #expect(Base64URL.decode(bytes: ArraySlice(Array(bad.utf8))) == nil, "\(bad)")
        }
    }
}

extension SesameError {
    /// The ID token rule for `invalidIDToken` errors.
    var rule: IDTokenRule? {
        if case .invalidIDToken(let rule, _) = self.reason { return rule }
        return nil
    }
}
