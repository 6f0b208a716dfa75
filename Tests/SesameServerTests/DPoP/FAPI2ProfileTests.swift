import Crypto
import Foundation
import JWTKit
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// The FAPI 2.0 Security Profile as a client profile (issue #32, docs/fapi2.md), over real HTTP:
/// what registration refuses, the whole flow a FAPI client makes (PAR with a DPoP proof, the
/// login, the code for DPoP-bound ES256 tokens with private_key_jwt, refresh without rotation),
/// and each request the profile forbids.
@Suite("FAPI 2.0 Security Profile clients")
struct FAPI2ProfileTests {
    /// A FAPI client: its key (private_key_jwt) and its DPoP key.
    struct BankClient {
        static let id = "bank-app"
        static let redirect = "https://bank.example.com/cb"
        let key = P256.Signing.PrivateKey()
        let dpop = DPoPProofMaker()

        var jwks: String {
            let point = key.publicKey.x963Representation
            return """
                {"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"\(Base64URL.encode(point.dropFirst().prefix(32)))","y":"\(Base64URL.encode(point.suffix(32)))"}]}
                """
        }

        func spec() -> ClientSpec {
            var spec = ClientSpec(
                clientID: Self.id, redirectURIs: [Self.redirect], scopes: ["openid", "profile", "offline_access"],
                idTokenSigningAlg: "ES256", accessTokenSigningAlg: "ES256", jwks: jwks)
            spec.securityProfile = .fapi2
            return spec
        }

        /// RFC 7523 client authentication; `aud` the issuer as FAPI 2.0 §5.3.2.1 requires.
        func authentication(_ server: TestServer, audience: String? = nil) async throws -> [String: String] {
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: "k1")
            let now = Int(server.clock.now().timeIntervalSince1970)
            let assertion = try await keys.sign(
                ClientAssertionClaims(
                    iss: Self.id, sub: Self.id, aud: audience ?? server.issuer, exp: now + 60, iat: now,
                    jti: UUID().uuidString),
                kid: "k1")
            return [
                "client_id": Self.id, "client_assertion": assertion,
                "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            ]
        }
    }

    static func register(_ server: TestServer) async throws -> BankClient {
        let bank = BankClient()
        let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
        _ = try await admin.addClient(bank.spec())
        return bank
    }

    @Test("registration: the profile needs keys (no secret) and ES256, and turns on PAR and DPoP")
    func registration() async throws {
        try await withTestServer { server in
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            let bank = BankClient()
            var secret = bank.spec()
            secret.jwks = nil
            secret.confidential = true
            await #expect(throws: AdminError.self, "client_secret_basic") { try await admin.addClient(secret) }
            var rs256 = bank.spec()
            rs256.idTokenSigningAlg = "RS256"
            await #expect(throws: AdminError.self, "RS256") { try await admin.addClient(rs256) }
            let (record, _) = try await admin.addClient(bank.spec())
            #expect(record.securityProfile == .fapi2)
            #expect(record.requirePushedRequests && record.dpopBoundAccessTokens)
            let stored = try #require(try await server.store.client(id: BankClient.id))
            #expect(stored.securityProfile == .fapi2, "the profile survives the store")
        }
    }

    /// Pushes a request of `bank` (with its DPoP proof), signs in, and returns the code.
    static func code(_ server: TestServer, _ bank: BankClient, _ attempt: OAuthFlow.Attempt) async throws -> String {
        var flow = OAuthFlow(browser: server.client())
        flow.clientID = BankClient.id
        flow.redirectURI = BankClient.redirect
        flow.scope = "openid profile offline_access"
        let pushed = try await server.client().postForm(
            "/par", flow.parameters(attempt).merging(try await bank.authentication(server)) { $1 },
            headers: ["DPoP": bank.dpop.proof("POST", server.issuer + "/par", issuedAt: server.clock.now())])
        try #require(pushed.status == 201, "\(pushed.text)")
        let requestURI = try pushed.json(PushedAuthorizationResponse.self).requestURI
        let page = try await flow.browser.get("/authorize", query: ["client_id": BankClient.id, "request_uri": requestURI])
        let redirect = try await flow.submitLogin(page: page)
        try #require(redirect.status == 303, "\(redirect.text)")
        #expect(redirect.locationQuery["iss"] == server.issuer, "RFC 9207 iss in the response")
        return try #require(redirect.locationQuery["code"])
    }

    static func tokenForm(_ code: String, _ attempt: OAuthFlow.Attempt) -> [String: String] {
        [
            "grant_type": "authorization_code", "code": code, "redirect_uri": BankClient.redirect,
            "code_verifier": attempt.pkce.verifier,
        ]
    }

    @Test("the whole flow: PAR, login, DPoP-bound ES256 tokens, refresh without rotation", arguments: StoreBackend.available)
    func flow(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let bank = try await Self.register(server)
            let attempt = OAuthFlow.Attempt()
            let code = try await Self.code(server, bank, attempt)
            let tokenURL = server.issuer + "/token"
            let response = try await server.client().postForm(
                "/token", Self.tokenForm(code, attempt).merging(try await bank.authentication(server)) { $1 },
                headers: ["DPoP": bank.dpop.proof("POST", tokenURL, issuedAt: server.clock.now())])
            #expect(response.status == 200, "\(response.text)")
            let tokens = try response.json(TokenResponse.self)
            #expect(tokens.tokenType == "DPoP")
            #expect(JWTParts.header(tokens.accessToken)["alg"] as? String == "ES256")
            #expect(JWTParts.header(try #require(tokens.idToken))["alg"] as? String == "ES256")
            let refreshToken = try #require(tokens.refreshToken)
            for round in 1...2 {
                let refreshed = try await server.client().postForm(
                    "/token",
                    ["grant_type": "refresh_token", "refresh_token": refreshToken].merging(try await bank.authentication(server)) { $1 },
                    headers: ["DPoP": bank.dpop.proof("POST", tokenURL, issuedAt: server.clock.now())])
                #expect(refreshed.status == 200, "round \(round): \(refreshed.text)")
                #expect(refreshed.jsonObject["refresh_token"] == nil, "not rotated (FAPI 2.0 section 5.3.2.1)")
                #expect(refreshed.jsonObject["token_type"] as? String == "DPoP")
            }
        }
    }

    @Test("refused: /authorize without PAR, a push without PKCE, a token request without DPoP, an assertion for the token endpoint, a code older than 60 s")
    func refusals() async throws {
        try await withTestServer(configure: { $0.authorizationCodeLifetime = 600 }) { server in
            let bank = try await Self.register(server)
            var flow = OAuthFlow(browser: server.client())
            flow.clientID = BankClient.id
            flow.redirectURI = BankClient.redirect
            flow.scope = "openid"
            let direct = try await flow.authorize(OAuthFlow.Attempt())
            #expect(direct.status == 303 && direct.locationQuery["error"] == "invalid_request", "\(direct.location ?? direct.text)")

            var noPKCE = flow
            noPKCE.sendsPKCE = false
            let push = try await server.client().postForm(
                "/par", noPKCE.parameters(OAuthFlow.Attempt()).merging(try await bank.authentication(server)) { $1 })
            #expect(push.status == 400, "\(push.text)")

            let attempt = OAuthFlow.Attempt()
            let code = try await Self.code(server, bank, attempt)
            let withoutProof = try await server.client().postForm(
                "/token", Self.tokenForm(code, attempt).merging(try await bank.authentication(server)) { $1 })
            #expect(withoutProof.jsonObject["error"] as? String == "invalid_dpop_proof", "\(withoutProof.text)")

            let tokenURL = server.issuer + "/token"
            let wrongAudience = try await server.client().rawPostForm(
                "/token",
                Self.tokenForm(code, attempt).merging(try await bank.authentication(server, audience: tokenURL)) { $1 },
                headers: ["DPoP": bank.dpop.proof("POST", tokenURL, issuedAt: server.clock.now())])
            #expect(wrongAudience.status == 401, "\(wrongAudience.text)")

            let lateAttempt = OAuthFlow.Attempt()
            let late = try await Self.code(server, bank, lateAttempt)
            server.clock.advance(by: 61)
            let expired = try await server.client().postForm(
                "/token", Self.tokenForm(late, lateAttempt).merging(try await bank.authentication(server)) { $1 },
                headers: ["DPoP": bank.dpop.proof("POST", tokenURL, issuedAt: server.clock.now())])
            #expect(expired.jsonObject["error"] as? String == "invalid_grant", "the 600 s server setting is capped at 60 s: \(expired.text)")
        }
    }
}
