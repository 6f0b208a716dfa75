import Crypto
import Foundation
import SesameProtocol
import Testing

@testable import Sesame

/// OIDC Core §3.1.3.7: one forged token per rule, each must fail with that rule named.
@Suite("ID token validation")
struct IDTokenValidationTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    let key = ES256TestKey(kid: "k1")

    func keys(_ jwks: [[String: Any]]? = nil) async throws -> JWKSet {
        try JWKSet.parse(JWKSJSON.data(jwks ?? [key.jwk]))
    }

    func expectations(nonce: String? = "n-0S6_WzA2Mj", maxAge: Int? = nil, acr: [String]? = nil,
                      claims: ClaimsRequest? = nil, accessToken: String? = nil) -> IDTokenExpectations {
        IDTokenExpectations(
            issuer: "https://id.test", clientID: "app", nonce: nonce, maxAge: maxAge,
            acrValues: acr, claims: claims, accessToken: accessToken, leeway: 60, now: now)
    }

    /// The rule a token fails, or nil when it validates.
    func failedRule(_ token: String, _ expected: IDTokenExpectations? = nil,
                    validator: IDTokenValidator = IDTokenValidator(), keys: JWKSet? = nil) async throws -> IDTokenRule? {
        let keySet: JWKSet
        if let keys { keySet = keys } else { keySet = try await self.keys() }
        do {
            _ = try validator.validate(token, expected: expected ?? expectations(), keys: keySet)
            return nil
        } catch {
            guard let rule = error.rule else {
                Issue.record("expected invalidIDToken, got \(error)")
                return .malformed
            }
            return rule
        }
    }

    @Test("valid token passes")

    func validTokenPasses() async throws {
        let claims = try IDTokenValidator().validate(
            key.sign(idTokenClaims(now: now, extra: ["name": "Ada", "aud": ["app"]])),
            expected: expectations(), keys: try await keys())
        #expect(claims.sub == "user-1")
        #expect(claims.aud == ["app"])
        #expect(claims.name == "Ada")
        #expect(claims.exp == Date(timeIntervalSince1970: now.timeIntervalSince1970 + 300))
    }

    @Test("EdDSA token passes")

    func eddsaTokenPasses() async throws {
        let ed = EdDSATestKey(kid: "ed")
        let rule = try await failedRule(ed.sign(idTokenClaims(now: now)), keys: try await keys([ed.jwk]))
        #expect(rule == nil)
    }

    @Test("bad signature")

    func badSignature() async throws {
        let other = ES256TestKey(kid: "k1")  // same kid, different key
        #expect(try await failedRule(other.sign(idTokenClaims(now: now))) == .signature)
    }

    @Test("alg none rejected")

    func algNoneRejected() async throws {
        let token = JWSBuilder.encodeJSON(["alg": "none"]) + "." + JWSBuilder.encodeJSON(idTokenClaims(now: now)) + "."
        #expect(try await failedRule(token) == .algorithm)
    }

    @Test("HS256 signed with the public key rejected")

    func hs256SignedWithThePublicKeyRejected() async throws {
        let publicKeyBytes = key.key.publicKey.x963Representation
        let token = JWSBuilder.compact(header: ["alg": "HS256", "kid": "k1"], claims: idTokenClaims(now: now)) {
            Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: publicKeyBytes)))
        }
        #expect(try await failedRule(token) == .algorithm)
        // Even with a client secret configured, the public key is not the HMAC key.
        let withSecret = IDTokenValidator(clientSecret: "s3cret")
        #expect(try await failedRule(token, validator: withSecret) == .signature)
    }

    @Test("HS256 with client secret accepted")

    func hs256WithClientSecretAccepted() async throws {
        let token = JWSBuilder.compact(header: ["alg": "HS256"], claims: idTokenClaims(now: now)) {
            Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: Data("s3cret".utf8))))
        }
        #expect(try await failedRule(token, validator: IDTokenValidator(clientSecret: "s3cret")) == nil)
    }

    @Test("key type must match algorithm")

    func keyTypeMustMatchAlgorithm() async throws {
        // An RSA key named by kid cannot verify an ES256 token.
        let vector = try Vectors.load("jws-rfc7520-4.1-rs256.json")
        var rsa = try #require(vector["jwk_public"] as? [String: Any])
        rsa["kid"] = "k1"
        let rule = try await failedRule(key.sign(idTokenClaims(now: now)), keys: try await keys([rsa]))
        #expect(rule == .algorithm)
    }

    @Test("wrong issuer")

    func wrongIssuer() async throws {
        #expect(try await failedRule(key.sign(idTokenClaims(issuer: "https://evil.test", now: now))) == .issuer)
    }

    @Test("wrong audience")

    func wrongAudience() async throws {
        #expect(try await failedRule(key.sign(idTokenClaims(clientID: "other-app", now: now))) == .audience)
    }

    @Test("extra untrusted audience")

    func extraUntrustedAudience() async throws {
        let token = key.sign(idTokenClaims(now: now, extra: ["aud": ["app", "other"], "azp": "app"]))
        #expect(try await failedRule(token) == .audience)
        var trusting = expectations()
        trusting.trustedAudiences = ["other"]
        #expect(try await failedRule(token, trusting) == nil)
    }

    @Test("several audiences need azp")

    func severalAudiencesNeedAzp() async throws {
        var trusting = expectations()
        trusting.trustedAudiences = ["other"]
        let token = key.sign(idTokenClaims(now: now, extra: ["aud": ["app", "other"]]))
        #expect(try await failedRule(token, trusting) == .authorizedParty)
        let wrongAzp = key.sign(idTokenClaims(now: now, extra: ["azp": "other"]))
        #expect(try await failedRule(wrongAzp) == .authorizedParty)
    }

    @Test("expired")

    func expired() async throws {
        let token = key.sign(idTokenClaims(now: now.addingTimeInterval(-400), lifetime: 300))
        #expect(try await failedRule(token) == .expired)
        // Within the leeway it still passes.
        let recent = key.sign(idTokenClaims(now: now.addingTimeInterval(-330), lifetime: 300))
        #expect(try await failedRule(recent) == nil)
    }

    @Test("issued at far off")

    func issuedAtFarOff() async throws {
        let future = key.sign(idTokenClaims(now: now.addingTimeInterval(3600)))
        #expect(try await failedRule(future) == .issuedAt)
        let past = key.sign(idTokenClaims(now: now.addingTimeInterval(-86_400), lifetime: 200_000))
        #expect(try await failedRule(past) == .issuedAt)
    }

    @Test("wrong nonce")

    func wrongNonce() async throws {
        #expect(try await failedRule(key.sign(idTokenClaims(nonce: "other", now: now))) == .nonce)
        #expect(try await failedRule(key.sign(idTokenClaims(nonce: nil, now: now))) == .nonce)
    }

    @Test("missing subject")

    func missingSubject() async throws {
        #expect(try await failedRule(key.sign(idTokenClaims(subject: nil, now: now))) == .subject)
    }

    @Test("auth time and max age")

    func authTimeAndMaxAge() async throws {
        let old = key.sign(idTokenClaims(now: now, extra: ["auth_time": Int(now.timeIntervalSince1970) - 3600]))
        #expect(try await failedRule(old, expectations(maxAge: 600)) == .authTime)
        #expect(try await failedRule(old, expectations()) == nil)
    }

    @Test("acr must be requested value")

    func acrMustBeRequestedValue() async throws {
        let token = key.sign(idTokenClaims(now: now, extra: ["acr": "urn:sesame:pwd"]))
        #expect(try await failedRule(token, expectations(acr: ["urn:sesame:mfa"])) == .acr)
        #expect(try await failedRule(token, expectations(acr: ["urn:sesame:pwd"])) == nil)
    }

    /// OIDC Core §5.5.1.1: an essential `acr` requested with values must be met.
    @Test("essential ACR from claims request")
    func essentialACRFromClaimsRequest() async throws {
        func acr(essential: Bool, _ values: [String]) -> IDTokenExpectations {
            expectations(claims: ClaimsRequest(idToken: [
                "acr": IndividualClaimRequest(essential: essential, values: values.map { .string($0) })]))
        }
        let pwd = key.sign(idTokenClaims(now: now, extra: ["acr": "urn:sesame:pwd"]))
        #expect(try await failedRule(pwd, acr(essential: true, ["urn:sesame:mfa"])) == .acr)
        #expect(try await failedRule(pwd, acr(essential: true, ["urn:sesame:mfa", "urn:sesame:pwd"])) == nil)
        #expect(try await failedRule(key.sign(idTokenClaims(now: now)), acr(essential: true, ["urn:sesame:mfa"])) == .acr)
        // A single `value` counts as well.
        let single = expectations(claims: ClaimsRequest(idToken: [
            "acr": IndividualClaimRequest(essential: true, value: .string("urn:sesame:mfa"))]))
        #expect(try await failedRule(pwd, single) == .acr)
        // A voluntary request is a preference (§5.5.1), not a requirement.
        #expect(try await failedRule(pwd, acr(essential: false, ["urn:sesame:mfa"])) == nil)
    }

    /// OIDC Core §5.5.1: the provider must not answer for another user than the requested `sub`.
    @Test("requested subject must match")
    func requestedSubjectMustMatch() async throws {
        func sub(_ value: ClaimValue) -> IDTokenExpectations {
            expectations(claims: ClaimsRequest(idToken: ["sub": IndividualClaimRequest(value: value)]))
        }
        let token = key.sign(idTokenClaims(now: now))
        #expect(try await failedRule(token, sub(.string("user-2"))) == .requestedSubject)
        #expect(try await failedRule(token, sub(.number(1))) == .requestedSubject)
        #expect(try await failedRule(token, sub(.string("user-1"))) == nil)
        let keySet = try await keys()
        do {
            _ = try IDTokenValidator().validate(token, expected: sub(.string("user-2")), keys: keySet)
            Issue.record("an ID token for another user was accepted")
        } catch {
            #expect(error.description.contains("another user"))
            #expect(error.description.contains("§5.5.1"))
        }
    }

    @Test("access token hash")

    func accessTokenHash() async throws {
        let hash = try #require(AccessTokenHash.compute(accessToken: "at-1", alg: "ES256"))
        let token = key.sign(idTokenClaims(now: now, extra: ["at_hash": hash]))
        #expect(try await failedRule(token, expectations(accessToken: "at-1")) == nil)
        #expect(try await failedRule(token, expectations(accessToken: "at-2")) == .accessTokenHash)
    }

    @Test("unknown kid")

    func unknownKid() async throws {
        let stranger = ES256TestKey(kid: "k9")
        #expect(try await failedRule(stranger.sign(idTokenClaims(now: now))) == .unknownKey)
    }

    @Test("malformed token")

    func malformedToken() async throws {
        #expect(try await failedRule("not-a-jwt") == .malformed)
        #expect(try await failedRule("a.b.c.d") == .malformed)
    }

    @Test("at_hash matches OIDC example")

    func atHashMatchesOIDCExample() {
        // OIDC Core §A.3: access token and at_hash of the RS256 example.
        #expect(AccessTokenHash.compute(accessToken: "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", alg: "RS256")
            == "77QmUPtjPfzWtF2AnpK9RQ")
    }
}
