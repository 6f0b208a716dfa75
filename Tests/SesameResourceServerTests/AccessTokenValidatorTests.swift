import Crypto
import Foundation
import JWTKit
import SesameResourceServer
import SesameStore
import SesameTesting
import Testing
import _CryptoExtras

/// RFC 9068 §4 against the real server's tokens and keys, fetched over HTTP through discovery.
@Suite("Access token validation (RFC 9068) against the real server")
struct AccessTokenValidatorTests {
    @Test("a client_credentials token from /token validates, with its claims and scopes")
    func validToken() async throws {
        try await withTestServer { server in
            let transport = CountingTransport()
            let validator = validator(for: server, transport: transport)
            let token = try await clientCredentialsToken(server)
            let verified = try await validator.validate(token)
            #expect(verified.issuer == server.issuer)
            #expect(verified.subject == Fixtures.backend)
            #expect(verified.clientID == Fixtures.backend)
            #expect(verified.audience.contains(server.issuer))
            #expect(verified.expiresAt > server.clock.now())
            #expect(!verified.tokenID.isEmpty)
            // Keys are fetched once (discovery, then the JWKS) and kept.
            for _ in 0..<5 { _ = try await validator.validate(token) }
            #expect(transport.count("openid-configuration") == 1)
            #expect(transport.jwksFetches == 1)
        }
    }

    @Test("a client registered for ES256 access tokens gets them signed by the EC key; they validate here and at /introspect; the default stays RS256")
    func es256AccessTokens() async throws {
        try await withTestServer { server in
            let secret = "an-es256-client-secret-of-at-least-32-characters"
            try await server.store.upsertClient(
                ClientRecord(
                    clientID: "es-backend", name: "ES256 Backend", secretHash: try TestServer.hasher.hash(secret),
                    grantTypes: [.clientCredentials], allowedScopes: ["api.read"],
                    tokenEndpointAuthMethod: .clientSecretBasic, accessTokenSigningAlg: "ES256"))
            let basic = Data("es-backend:\(secret)".utf8).base64EncodedString()
            let response = try await server.client().postForm(
                "/token", ["grant_type": "client_credentials"], headers: ["Authorization": "Basic \(basic)"])
            #expect(response.status == 200, "\(response.text)")
            let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let token = try #require(body["access_token"] as? String)
            let headerJSON = try #require(decodeBase64URL(token.split(separator: ".")[0]))
            let header = try #require(try JSONSerialization.jsonObject(with: headerJSON) as? [String: Any])
            #expect(header["alg"] as? String == "ES256")
            #expect(header["typ"] as? String == "at+jwt")
            #expect(token.split(separator: ".")[2].count == 86, "an ES256 signature is 64 octets")
            let verified = try await validator(for: server).validate(token)
            #expect(verified.clientID == "es-backend")
            let introspection = try await server.client().postForm(
                "/introspect", ["token": token], headers: ["Authorization": "Basic \(basic)"])
            let active = try JSONSerialization.jsonObject(with: introspection.body) as? [String: Any]
            #expect(active?["active"] as? Bool == true, "\(introspection.text)")

            // The fixture backend registered without a choice keeps RS256.
            let rs256 = try await clientCredentialsToken(server)
            let rsHeaderJSON = try #require(decodeBase64URL(rs256.split(separator: ".")[0]))
            let rsHeader = try JSONSerialization.jsonObject(with: rsHeaderJSON) as? [String: Any]
            #expect(rsHeader?["alg"] as? String == "RS256")
        }
    }

    @Test("expired (beyond the leeway), not yet valid, and the leeway itself")
    func times() async throws {
        try await withTestServer { server in
            let token = try await clientCredentialsToken(server)
            let lifetime = try await validator(for: server).validate(token).expiresAt
                .timeIntervalSince(server.clock.now())
            #expect(await rule(validator(for: server, skew: lifetime + 31), token) == .expired)
            #expect(await rule(validator(for: server, skew: lifetime + 20), token) == nil, "inside the 30 s leeway")
            #expect(await rule(validator(for: server, skew: -120), token) == .notYetValid, "iat two minutes ahead")

            var future = CraftedClaims(server: server)
            future.nbf = (future.iat ?? 0) + 600
            let notBefore = try await server.keyRing.sign(future, algorithm: "RS256", type: "at+jwt")
            #expect(await rule(validator(for: server), notBefore) == .notYetValid)
        }
    }

    @Test("a foreign issuer, a wrong audience, a missing claim, an ID token: each refused by its rule")
    func claims() async throws {
        try await withTestServer { server in
            let validator = validator(for: server)
            var foreign = CraftedClaims(server: server)
            foreign.iss = "https://evil.example"
            #expect(await rule(validator, try await server.keyRing.sign(foreign, algorithm: "RS256", type: "at+jwt")) == .issuer)

            var otherAPI = CraftedClaims(server: server)
            otherAPI.aud = ["https://other-api.example"]
            #expect(await rule(validator, try await server.keyRing.sign(otherAPI, algorithm: "RS256", type: "at+jwt")) == .audience)
            let forOther = AccessTokenValidator(
                issuer: server.issuer, audience: "https://other-api.example", keys: validator.keys,
                now: { server.clock.now() })
            #expect(await rule(forOther, try await server.keyRing.sign(otherAPI, algorithm: "RS256", type: "at+jwt")) == nil)

            for drop in ["client_id", "jti", "sub", "exp"] {
                var missing = CraftedClaims(server: server)
                switch drop {
                case "client_id": missing.client_id = nil
                case "jti": missing.jti = nil
                case "sub": missing.sub = nil
                default: missing.exp = nil
                }
                let token = try await server.keyRing.sign(missing, algorithm: "RS256", type: "at+jwt")
                do {
                    _ = try await validator.validate(token)
                    Issue.record("a token without \(drop) was accepted")
                } catch let error as AccessTokenError {
                    #expect(error.rule == .malformed && error.message.contains(drop), "\(error)")
                }
            }

            // The same claims and key, typed as an ID token (typ JWT): not an access token.
            let idTyped = try await server.keyRing.sign(CraftedClaims(server: server), algorithm: "RS256", type: "JWT")
            #expect(await rule(validator, idTyped) == .type)
            // typ is a media type: compared without regard to case, with or without "application/".
            for (typ, accepted) in [("AT+JWT", true), ("application/at+jwt", true), ("Application/AT+jwt", true),
                                    ("at+jwt ", false), ("at+jw", false), ("application/jwt", false), ("", false)] {
                let token = try await server.keyRing.sign(CraftedClaims(server: server), algorithm: "RS256", type: typ)
                #expect(await rule(validator, token) == (accepted ? nil : .type), "typ \(typ)")
            }
            // ES256 from the same issuer is fine (the key ring publishes both).
            let es256 = try await server.keyRing.sign(CraftedClaims(server: server), algorithm: "ES256", type: "at+jwt")
            #expect(await rule(validator, es256) == nil)
        }
    }

    @Test("a scope matches a whole space-separated token only: not a prefix, not the empty name; extra spaces are ignored")
    func scopeTokens() async throws {
        try await withTestServer { server in
            let validator = validator(for: server)
            var claims = CraftedClaims(server: server)
            claims.scope = " openid  profile api.read "
            let token = try await server.keyRing.sign(claims, algorithm: "RS256", type: "at+jwt")
            #expect(await rule(validator, token, scopes: ["profile", "api.read", "openid"]) == nil)
            for missing in ["pro", "profile2", "api", "read", "", " "] {
                #expect(await rule(validator, token, scopes: [missing]) == .scope, "'\(missing)'")
            }
            let verified = try await validator.validate(token)
            #expect(verified.scopes == ["openid", "profile", "api.read"])
            #expect(verified.hasScopes(["openid", "api.read"]) && !verified.hasScopes(["openid", "admin"]))
        }
    }

    @Test("scopes: required ones present pass; a missing one is insufficient_scope with 403")
    func scopes() async throws {
        try await withTestServer { server in
            let validator = validator(for: server)
            let token = try await server.keyRing.sign(CraftedClaims(server: server), algorithm: "RS256", type: "at+jwt")
            #expect(try await validator.validate(token, requiredScopes: ["profile"]).scopes == ["openid", "profile"])
            do {
                _ = try await validator.validate(token, requiredScopes: ["profile", "admin"])
                Issue.record("a token without admin passed")
            } catch let error as AccessTokenError {
                #expect(error.rule == .scope && error.status == 403 && error.errorCode == "insufficient_scope")
                #expect(error.requiredScopes == ["profile", "admin"])
            }
        }
    }

    @Test("forgeries: alg none, HMAC keyed with the public key, a tampered payload, a foreign key")
    func forgeries() async throws {
        try await withTestServer { server in
            let transport = CountingTransport()
            let validator = validator(for: server, transport: transport)
            let real = try await server.keyRing.sign(CraftedClaims(server: server), algorithm: "RS256", type: "at+jwt")
            let parts = real.split(separator: ".")
            let headerJSON = try #require(decodeBase64URL(parts[0]))
            let header = try #require(try JSONSerialization.jsonObject(with: headerJSON) as? [String: Any])
            let kid = try #require(header["kid"] as? String)
            let payload = try #require(decodeBase64URL(parts[1]))

            let none = try compact(header: ["alg": "none", "typ": "at+jwt"], payload: payload, signature: [])
            #expect(await rule(validator, none) == .algorithm)
            let noneWithKid = try compact(header: ["alg": "none", "typ": "at+jwt", "kid": kid], payload: payload, signature: [1])
            #expect(await rule(validator, noneWithKid) == .algorithm)

            // The published RSA key's JWKS entry, used as the HMAC secret (RFC 8725 §2.1).
            let jwks = try await server.client().get("/jwks.json").body
            for secret in [jwks, Data(kid.utf8)] {
                let input = try compact(header: ["alg": "HS256", "typ": "at+jwt", "kid": kid], payload: payload, signature: [])
                    .dropLast()
                let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: secret))
                #expect(await rule(validator, String(input) + "." + base64url(Data(mac))) == .algorithm)
            }

            var tamperedClaims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            tamperedClaims["scope"] = "openid profile admin"
            let tampered = [String(parts[0]), base64url(try JSONSerialization.data(withJSONObject: tamperedClaims)), String(parts[2])]
                .joined(separator: ".")
            #expect(await rule(validator, tampered) == .signature)

            // Signed by an attacker's own key under a kid the issuer never published: one JWKS
            // refetch, then refused; a second forged kid soon after does not refetch again.
            let attacker = JWTKeyCollection()
            await attacker.add(
                rsa: try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048)),
                digestAlgorithm: .sha256, kid: "attacker")
            var typed = JWTHeader()
            typed.typ = "at+jwt"
            let forged = try await attacker.sign(CraftedClaims(server: server), kid: "attacker", header: typed)
            #expect(await rule(validator, forged) == .unknownKey)
            let fetchesAfterFirst = transport.jwksFetches
            #expect(fetchesAfterFirst == 2, "the first fetch and one refetch for the unknown kid")
            #expect(await rule(validator, forged) == .unknownKey)
            #expect(transport.jwksFetches == fetchesAfterFirst, "refetches are limited")
            // The attacker's key under the issuer's real kid: the signature fails.
            let posing = try await attacker.sign(CraftedClaims(server: server), kid: "attacker", header: typed)
            let posingParts = posing.split(separator: ".")
            let posingHeaderJSON = try #require(decodeBase64URL(posingParts[0]))
            var posingHeader = try #require(try JSONSerialization.jsonObject(with: posingHeaderJSON) as? [String: Any])
            posingHeader["kid"] = kid
            let posingPayload = try #require(decodeBase64URL(posingParts[1]))
            let posingSignature = try #require(decodeBase64URL(posingParts[2]))
            let relabelled = try compact(header: posingHeader, payload: posingPayload, signature: Array(posingSignature))
            #expect(await rule(validator, relabelled) == .signature)
        }
    }

    @Test("a rotated key: the validator refetches once and accepts the new key's tokens")
    func rotation() async throws {
        try await withTestServer { server in
            let transport = CountingTransport()
            let validator = validator(for: server, transport: transport)
            _ = try await validator.validate(try await clientCredentialsToken(server))
            let old = try await clientCredentialsToken(server)
            try await server.keyRing.rotate(overlap: 3600)
            let new = try await clientCredentialsToken(server)
            #expect(new.split(separator: ".")[0] != old.split(separator: ".")[0], "the new token names the new kid")
            #expect(try await validator.validate(new).subject == Fixtures.backend)
            #expect(try await validator.validate(old).subject == Fixtures.backend, "the old key is still published")
            #expect(transport.jwksFetches == 2)
        }
    }

    @Test("20 validations at once on a cold cache share one JWKS fetch")
    func concurrentColdStart() async throws {
        try await withTestServer { server in
            let transport = CountingTransport()
            let validator = validator(for: server, transport: transport)
            let token = try await clientCredentialsToken(server)
            let subjects = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await validator.validate(token).subject } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(subjects.count == 20 && Set(subjects) == [Fixtures.backend])
            #expect(transport.jwksFetches == 1 && transport.count("openid-configuration") == 1)
        }
    }

    @Test("an unreachable issuer is keys_unavailable (503), not invalid_token")
    func unreachable() async throws {
        try await withTestServer { server in
            let token = try await clientCredentialsToken(server)
            let closed = AccessTokenValidator(
                issuer: server.issuer, audience: server.issuer,
                keys: JWKSCache(jwksURI: URL(string: "http://127.0.0.1:1/jwks.json")!), now: { server.clock.now() })
            do {
                _ = try await closed.validate(token)
                Issue.record("validated without keys")
            } catch let error as AccessTokenError {
                #expect(error.rule == .keysUnavailable && error.status == 503)
            }
            // Discovery naming another issuer is refused (OpenID Connect Discovery §4.3).
            let mismatched = AccessTokenValidator(
                issuer: server.issuer + "/", audience: server.issuer, now: { server.clock.now() })
            #expect(await rule(mismatched, token) == .keysUnavailable)
        }
    }

    @Test("malformed and extreme input: refused with malformed, never a crash")
    func extremes() async throws {
        try await withTestServer { server in
            let validator = validator(for: server)
            let header = ["alg": "RS256", "typ": "at+jwt", "kid": "k"] as [String: Any]
            var cases = ["", ".", "..", "a.b.c", "a.b", "a.b.c.d", "!!!.***.???", String(repeating: "A", count: 20_000)]
            // A payload that is not an object never gets past the signature.
            #expect(await rule(validator, try compact(header: header, payload: Data("[]".utf8), signature: [1])) == .unknownKey)
            cases.append(String(repeating: "[", count: 10_000) + ".e30.AA")
            cases.append(base64url(Data((String(repeating: "[", count: 5_000) + "1" + String(repeating: "]", count: 5_000)).utf8)) + ".e30.AA")
            for token in cases {
                #expect(await rule(validator, token) == .malformed, "\(token.prefix(40))")
            }
            // Extreme numbers in a correctly signed token: malformed, never a trap.
            for exp in [1e30, -1e300, 1.8446744073709552e19, 9.223372036854775807e18] {
                var claims = CraftedClaims(server: server)
                claims.exp = exp
                let token = try await server.keyRing.sign(claims, algorithm: "RS256", type: "at+jwt")
                let broken = await rule(validator, token)
                #expect(broken == .malformed || broken == .expired, "exp \(exp): \(String(describing: broken))")
            }
        }
    }
}
