import Crypto
import _CryptoExtras
import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing

/// Every rule of RFC 9449 §4.3 broken once at `/token`, each answered `invalid_dpop_proof`
/// (400, §5.1) and no token issued; a replayed `jti` across two server processes; the
/// server-provided nonce of §8 with its retry.
@Suite("DPoP: proofs refused (RFC 9449 §4.3, §8, §11.1)")
struct DPoPProofRefusalTests {
    static let basic = HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret)

    static func token(_ server: TestServer, proof: String, client: HTTPTestClient? = nil) async throws -> TestResponse {
        try await (client ?? server.client()).postForm(
            "/token", ["grant_type": "client_credentials"], headers: basic.merging(["DPoP": proof]) { $1 })
    }

    @Test("each broken rule is refused with invalid_dpop_proof and no token")
    func brokenRules() async throws {
        try await withTestServer { server in
            let maker = DPoPProofMaker()
            let url = server.issuer + "/token"
            let now = server.clock.now()
            var privateJWK: [String: any Sendable] = maker.publicJWK
            privateJWK["d"] = Base64URL.encode(maker.key.rawRepresentation)
            let cases: [(String, String)] = [
                ("wrong htm", maker.proof("GET", url, issuedAt: now)),
                ("wrong htu", maker.proof("POST", server.issuer + "/userinfo", issuedAt: now)),
                ("htu of another server", maker.proof("POST", "https://evil.example/token", issuedAt: now)),
                ("stale iat", maker.proof("POST", url, issuedAt: now.addingTimeInterval(-301))),
                ("iat ahead", maker.proof("POST", url, issuedAt: now.addingTimeInterval(120))),
                ("alg none", maker.proof("POST", url, issuedAt: now, header: ["alg": "none"], signature: { _ in Data() })),
                ("HS256 keyed with the jwk", maker.proof(
                    "POST", url, issuedAt: now, header: ["alg": "HS256"],
                    signature: { input in
                        Data(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: Data(maker.thumbprint.utf8))))
                    })),
                ("a private key in the header", maker.proof("POST", url, issuedAt: now, header: ["jwk": privateJWK])),
                ("typ JWT", maker.proof("POST", url, issuedAt: now, header: ["typ": "JWT"])),
                ("no typ", maker.proof("POST", url, issuedAt: now, header: ["typ": NSNull()])),
                ("no jwk", maker.proof("POST", url, issuedAt: now, header: ["jwk": NSNull()])),
                ("jwk of another key", maker.proof("POST", url, issuedAt: now, header: ["jwk": DPoPProofMaker().publicJWK])),
                ("ES256 with an RSA jwk", maker.proof("POST", url, issuedAt: now, header: ["jwk": ["kty": "RSA", "n": "AQAB", "e": "AQAB"]])),
                ("no jti", maker.proof("POST", url, issuedAt: now, claims: ["jti": NSNull()])),
                ("jti of 5000 characters", maker.proof("POST", url, issuedAt: now, jti: String(repeating: "j", count: 5000))),
                ("iat 1e30", maker.proof("POST", url, issuedAt: now, claims: ["iat": 1e30])),
                ("iat a string", maker.proof("POST", url, issuedAt: now, claims: ["iat": "now"])),
                ("crit header", maker.proof("POST", url, issuedAt: now, header: ["crit": ["exp"]])),
                ("tampered claims", {
                    let good = maker.proof("POST", url, issuedAt: now).split(separator: ".").map(String.init)
                    let claims = Base64URL.encode(Data(#"{"jti":"x","htm":"POST","htu":"\#(url)","iat":\#(Int(now.timeIntervalSince1970))}"#.utf8))
                    return [good[0], claims, good[2]].joined(separator: ".")
                }()),
                ("not a JWS", "not-a-proof"),
                ("20 KB", String(repeating: "a", count: 20_000) + ".b.c"),
                ("deep nesting", DPoPProofMaker.sign(
                    header: ["typ": "dpop+jwt", "alg": "ES256"], claims: ["jti": "1"]) { _ in Data() }
                    .replacingOccurrences(of: "eyJ", with: Base64URL.encode(Data((String(repeating: "[", count: 10_000)).utf8)) + "eyJ")),
            ]
            for (name, proof) in cases {
                let response = try await Self.token(server, proof: proof)
                #expect(response.status == 400, "\(name): \(response.status) \(response.text)")
                #expect(response.jsonObject["error"] as? String == "invalid_dpop_proof", "\(name): \(response.text)")
                #expect(response.jsonObject["access_token"] == nil)
            }
            // Two DPoP headers (§4.3 item 1), over a raw socket: URLSession would join them.
            let two = try await RawHTTP.send(
                port: server.baseURL.port ?? 80, method: "POST", path: "/token",
                headers: Self.basic.merging([
                    "Content-Type": "application/x-www-form-urlencoded",
                    "DPoP": maker.proof("POST", url, issuedAt: now) + "\r\nDPoP: " + maker.proof("POST", url, issuedAt: now),
                ]) { $1 },
                body: Data("grant_type=client_credentials".utf8))
            #expect(two.status == 400, "\(two.text)")
            // And the same request with one good proof passes: the refusals were the proofs.
            let good = try await Self.token(server, proof: maker.proof("POST", url, issuedAt: now))
            #expect(good.status == 200, "\(good.text)")
            // Case and default port of the URL do not matter (RFC 3986 §6.2.2-6.2.3).
            let port = server.baseURL.port ?? 80
            let spelled = try await Self.token(server, proof: maker.proof("POST", "HTTP://127.0.0.1:\(port)/token?x=1", issuedAt: now))
            #expect(spelled.status == 200, "\(spelled.text)")
        }
    }

    @Test("an RSA (PS256) and an Ed25519 proof are accepted, and bound to their keys' thumbprints")
    func otherAlgorithms() async throws {
        try await withTestServer { server in
            let url = server.issuer + "/token"
            let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let numbers = try rsa.publicKey.getKeyPrimitives()
            let rsaJWK = ["kty": "RSA", "n": Base64URL.encode(numbers.modulus), "e": Base64URL.encode(numbers.publicExponent)]
            let claims: [String: Any] = ["jti": SecureRandom.token(), "htm": "POST", "htu": url, "iat": Int(server.clock.now().timeIntervalSince1970)]
            let ps256 = DPoPProofMaker.sign(header: ["typ": "dpop+jwt", "alg": "PS256", "jwk": rsaJWK], claims: claims) { input in
                (try? rsa.signature(for: input, padding: .PSS).rawRepresentation) ?? Data()
            }
            let rsaResponse = try await Self.token(server, proof: ps256)
            #expect(rsaResponse.status == 200, "\(rsaResponse.text)")
            let rsaJKT = JWKThumbprint.rsa(modulus: Array(numbers.modulus), exponent: Array(numbers.publicExponent))
            let rsaToken = try rsaResponse.json(TokenResponse.self).accessToken
            #expect((JWTParts.payload(rsaToken)["cnf"] as? [String: Any])?["jkt"] as? String == rsaJKT)

            let ed = Curve25519.Signing.PrivateKey()
            let edJWK = ["kty": "OKP", "crv": "Ed25519", "x": Base64URL.encode(ed.publicKey.rawRepresentation)]
            var edClaims = claims
            edClaims["jti"] = SecureRandom.token()
            let eddsa = DPoPProofMaker.sign(header: ["typ": "dpop+jwt", "alg": "EdDSA", "jwk": edJWK], claims: edClaims) { input in
                (try? ed.signature(for: input)) ?? Data()
            }
            let edResponse = try await Self.token(server, proof: eddsa)
            #expect(edResponse.status == 200, "\(edResponse.text)")
        }
    }

    @Test(
        "one proof sent 20 times at once to two servers sharing PostgreSQL: exactly one token",
        .needsPostgreSQL)
    func replayAcrossProcesses() async throws {
        try await withTwoServers { first, second in
            let proof = DPoPProofMaker().proof("POST", first.issuer + "/token", issuedAt: first.clock.now())
            let statuses = try await statusesAtOnce(20, over: [first.client(), second.portClient()]) { client in
                try await Self.token(first, proof: proof, client: client).status
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 400 }.count == 19, "\(statuses)")
        }
    }

    @Test("a replayed proof on one server is refused")
    func replay() async throws {
        try await withTestServer { server in
            let proof = DPoPProofMaker().proof("POST", server.issuer + "/token", issuedAt: server.clock.now())
            #expect(try await Self.token(server, proof: proof).status == 200)
            let again = try await Self.token(server, proof: proof)
            #expect(again.status == 400)
            #expect((again.jsonObject["error_description"] as? String)?.contains("used before") == true)
        }
    }

    @Test("with nonces required: use_dpop_nonce and a DPoP-Nonce header, the retry with it passes, an expired nonce is refused")
    func nonces() async throws {
        try await withTestServer(configure: { $0.dpop.requireNonce = true }) { server in
            let maker = DPoPProofMaker()
            let url = server.issuer + "/token"
            let first = try await Self.token(server, proof: maker.proof("POST", url, issuedAt: server.clock.now()))
            #expect(first.status == 400)
            #expect(first.jsonObject["error"] as? String == "use_dpop_nonce")
            let nonce = try #require(first.header("DPoP-Nonce"))
            let retry = try await Self.token(server, proof: maker.proof("POST", url, nonce: nonce, issuedAt: server.clock.now()))
            #expect(retry.status == 200, "\(retry.text)")
            #expect(retry.header("DPoP-Nonce") != nil, "a fresh nonce for the next proof (§8.2)")
            let forged = try await Self.token(server, proof: maker.proof("POST", url, nonce: "made-up", issuedAt: server.clock.now()))
            #expect(forged.jsonObject["error"] as? String == "use_dpop_nonce")
            server.clock.advance(by: 301)
            let late = try await Self.token(server, proof: maker.proof("POST", url, nonce: nonce, issuedAt: server.clock.now()))
            #expect(late.status == 400)
            #expect(late.jsonObject["error"] as? String == "use_dpop_nonce")

            // At a resource the challenge is a 401 with WWW-Authenticate: DPoP (§9).
            let token = try retry.json(TokenResponse.self).accessToken
            let userinfo = try await server.client().get(
                "/userinfo",
                headers: [
                    "Authorization": "DPoP \(token)",
                    "DPoP": maker.proof("GET", server.issuer + "/userinfo", accessToken: token, issuedAt: server.clock.now()),
                ])
            #expect(userinfo.status == 401)
            #expect(userinfo.header("WWW-Authenticate")?.contains("use_dpop_nonce") == true)
            #expect(userinfo.header("DPoP-Nonce") != nil)
        }
    }
}
