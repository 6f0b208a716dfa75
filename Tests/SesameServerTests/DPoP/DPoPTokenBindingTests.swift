import Crypto
import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing

/// DPoP (RFC 9449, issue #32) over real HTTP: tokens bound to the proof's key at `/token` for
/// every grant the fixtures reach, the binding honoured at `/userinfo` and reported by
/// `/introspect`, and a public client's refresh token bound to the key.
@Suite("DPoP: sender-constrained tokens (RFC 9449)")
struct DPoPTokenBindingTests {
    static func tokenURL(_ server: TestServer) -> String { server.issuer + "/token" }

    /// The code flow of the public fixture app, the code exchanged with `proof`'s key.
    static func signIn(_ server: TestServer, maker: DPoPProofMaker?) async throws -> TestResponse {
        let flow = OAuthFlow(browser: server.client())
        let attempt = OAuthFlow.Attempt()
        let code = try await flow.signIn(attempt)
        var headers: [String: String] = [:]
        if let maker { headers["DPoP"] = maker.proof("POST", tokenURL(server), issuedAt: server.clock.now()) }
        return try await server.client().postForm(
            "/token",
            [
                "grant_type": "authorization_code", "code": code, "redirect_uri": flow.redirectURI,
                "client_id": flow.clientID, "code_verifier": attempt.pkce.verifier,
            ], headers: headers)
    }

    @Test("a code exchanged with a proof gets DPoP tokens bound to its key; /userinfo wants the key, /introspect shows it", arguments: StoreBackend.available)
    func codeFlowBinding(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let maker = DPoPProofMaker()
            let response = try await Self.signIn(server, maker: maker)
            #expect(response.status == 200, "\(response.text)")
            let tokens = try response.json(TokenResponse.self)
            #expect(tokens.tokenType == "DPoP")
            let cnf = JWTParts.payload(tokens.accessToken)["cnf"] as? [String: Any]
            #expect(cnf?["jkt"] as? String == maker.thumbprint)

            let userinfo = server.issuer + "/userinfo"
            let client = server.client()
            // Presented as a bearer token, a bound token is refused (RFC 9449 §7.2).
            let asBearer = try await client.userInfo(tokens.accessToken)
            #expect(asBearer.status == 401)
            #expect(asBearer.header("WWW-Authenticate")?.hasPrefix("DPoP") == true, "\(asBearer.headers)")
            // With its proof: served.
            let good = try await client.get(
                "/userinfo",
                headers: [
                    "Authorization": "DPoP \(tokens.accessToken)",
                    "DPoP": maker.proof("GET", userinfo, accessToken: tokens.accessToken, issuedAt: server.clock.now()),
                ])
            #expect(good.status == 200, "\(good.text)")
            #expect(good.jsonObject["sub"] != nil)
            // A thief with the token and a key of its own: refused.
            let thief = DPoPProofMaker()
            let stolen = try await client.get(
                "/userinfo",
                headers: [
                    "Authorization": "DPoP \(tokens.accessToken)",
                    "DPoP": thief.proof("GET", userinfo, accessToken: tokens.accessToken, issuedAt: server.clock.now()),
                ])
            #expect(stolen.status == 401)
            #expect(stolen.header("WWW-Authenticate")?.contains("invalid_dpop_proof") == true)
            // The right key, but no ath, or the ath of another token, or no proof at all.
            for (name, proof) in [
                ("no ath", maker.proof("GET", userinfo, issuedAt: server.clock.now())),
                ("another token's ath", maker.proof("GET", userinfo, accessToken: "other", issuedAt: server.clock.now())),
                ("POST proof for a GET", maker.proof("POST", userinfo, accessToken: tokens.accessToken, issuedAt: server.clock.now())),
            ] {
                let refused = try await client.get(
                    "/userinfo", headers: ["Authorization": "DPoP \(tokens.accessToken)", "DPoP": proof])
                #expect(refused.status == 401, "\(name): \(refused.text)")
            }
            let noProof = try await client.get("/userinfo", headers: ["Authorization": "DPoP \(tokens.accessToken)"])
            #expect(noProof.status == 401)

            // Introspection tells a resource server the binding (§6.2).
            let introspection = try await client.introspect(tokens.accessToken).jsonObject
            #expect(introspection["active"] as? Bool == true)
            #expect(introspection["token_type"] as? String == "DPoP")
            #expect((introspection["cnf"] as? [String: Any])?["jkt"] as? String == maker.thumbprint)
        }
    }

    @Test("without a proof tokens stay bearer tokens, and a bearer token sent with the DPoP scheme is refused")
    func bearerUnchanged() async throws {
        try await withTestServer { server in
            let response = try await Self.signIn(server, maker: nil)
            let tokens = try response.json(TokenResponse.self)
            #expect(tokens.tokenType == "Bearer")
            #expect(JWTParts.payload(tokens.accessToken)["cnf"] == nil)
            #expect(try await server.client().userInfo(tokens.accessToken).status == 200)
            let maker = DPoPProofMaker()
            let wrongScheme = try await server.client().get(
                "/userinfo",
                headers: [
                    "Authorization": "DPoP \(tokens.accessToken)",
                    "DPoP": maker.proof("GET", server.issuer + "/userinfo", accessToken: tokens.accessToken, issuedAt: server.clock.now()),
                ])
            #expect(wrongScheme.status == 401)
            let introspection = try await server.client().introspect(tokens.accessToken).jsonObject
            #expect(introspection["token_type"] as? String == "Bearer")
            #expect(introspection["cnf"] == nil)
        }
    }

    @Test("a public client's refresh token is bound: refused without the key or with another one, and not lost by the refusal", arguments: StoreBackend.available)
    func refreshBinding(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let maker = DPoPProofMaker()
            let tokens = try await Self.signIn(server, maker: maker).json(TokenResponse.self)
            let refreshToken = try #require(tokens.refreshToken)
            let form = ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": Fixtures.nativeApp]
            let client = server.client()
            let bare = try await client.postForm("/token", form)
            #expect(bare.status == 400, "\(bare.text)")
            #expect(bare.jsonObject["error"] as? String == "invalid_dpop_proof")
            let other = try await client.postForm(
                "/token", form, headers: ["DPoP": DPoPProofMaker().proof("POST", Self.tokenURL(server), issuedAt: server.clock.now())])
            #expect(other.status == 400)
            #expect(other.jsonObject["error"] as? String == "invalid_dpop_proof")
            // The refusals did not spend the token: the rightful key refreshes it.
            let good = try await client.postForm(
                "/token", form, headers: ["DPoP": maker.proof("POST", Self.tokenURL(server), issuedAt: server.clock.now())])
            #expect(good.status == 200, "\(good.text)")
            let next = try good.json(TokenResponse.self)
            #expect(next.tokenType == "DPoP")
            #expect((JWTParts.payload(next.accessToken)["cnf"] as? [String: Any])?["jkt"] as? String == maker.thumbprint)
            // Rotation keeps the binding.
            let again = try await client.postForm(
                "/token", ["grant_type": "refresh_token", "refresh_token": next.refreshToken ?? "", "client_id": Fixtures.nativeApp])
            #expect(again.status == 400)
        }
    }

    @Test("a confidential client's refresh token is not bound (RFC 9449 §5); client_credentials tokens are bound to the proof")
    func confidentialClient() async throws {
        try await withTestServer { server in
            let maker = DPoPProofMaker()
            let basic = HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret)
            let response = try await server.client().postForm(
                "/token", ["grant_type": "client_credentials"],
                headers: basic.merging(["DPoP": maker.proof("POST", Self.tokenURL(server), issuedAt: server.clock.now())]) { $1 })
            #expect(response.status == 200, "\(response.text)")
            let tokens = try response.json(TokenResponse.self)
            #expect(tokens.tokenType == "DPoP")
            #expect((JWTParts.payload(tokens.accessToken)["cnf"] as? [String: Any])?["jkt"] as? String == maker.thumbprint)
        }
    }

    @Test("a client registered with dpop_bound_access_tokens must send a proof with every token request")
    func clientRequiresDPoP() async throws {
        try await withTestServer { server in
            var record = try #require(try await server.store.client(id: Fixtures.backend))
            record.dpopBoundAccessTokens = true
            try await server.store.upsertClient(record)
            let basic = HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret)
            let bare = try await server.client().postForm("/token", ["grant_type": "client_credentials"], headers: basic)
            #expect(bare.status == 400)
            #expect(bare.jsonObject["error"] as? String == "invalid_dpop_proof")
            #expect((bare.jsonObject["error_description"] as? String)?.contains("dpop_bound_access_tokens") == true)
            let proof = DPoPProofMaker().proof("POST", Self.tokenURL(server), issuedAt: server.clock.now())
            let bound = try await server.client().postForm(
                "/token", ["grant_type": "client_credentials"], headers: basic.merging(["DPoP": proof]) { $1 })
            #expect(bound.status == 200, "\(bound.text)")
        }
    }

    @Test("discovery announces the proof algorithms: asymmetric only")
    func discovery() async throws {
        try await withTestServer { server in
            let document = try await server.client().get("/.well-known/openid-configuration").jsonObject
            let algorithms = try #require(document["dpop_signing_alg_values_supported"] as? [String])
            #expect(algorithms.contains("ES256") && algorithms.contains("PS256") && algorithms.contains("EdDSA"))
            #expect(!algorithms.contains("none") && !algorithms.contains { $0.hasPrefix("HS") })
        }
    }
}

/// RFC 9449 §10: the code bound to a key at `/authorize` (`dpop_jkt`) or at `/par` (the push's
/// own proof).
@Suite("DPoP: codes bound at the authorization request (RFC 9449 §10)")
struct DPoPAuthorizationCodeBindingTests {
    static func exchange(_ server: TestServer, _ flow: OAuthFlow, code: String, attempt: OAuthFlow.Attempt, proof: String?)
        async throws -> TestResponse
    {
        try await server.client().postForm(
            "/token",
            [
                "grant_type": "authorization_code", "code": code, "redirect_uri": flow.redirectURI,
                "client_id": flow.clientID, "code_verifier": attempt.pkce.verifier,
            ], headers: proof.map { ["DPoP": $0] } ?? [:])
    }

    @Test("dpop_jkt at /authorize: the code is redeemed only with a proof of that key")
    func authorizeParameter() async throws {
        try await withTestServer { server in
            let maker = DPoPProofMaker()
            let url = server.issuer + "/token"
            let flow = OAuthFlow(browser: server.client())
            for (name, proof) in [("no proof", nil), ("another key", DPoPProofMaker().proof("POST", url, issuedAt: server.clock.now()))] {
                let attempt = OAuthFlow.Attempt()
                let code = try await flow.signIn(attempt, extra: ["dpop_jkt": maker.thumbprint])
                let refused = try await Self.exchange(server, flow, code: code, attempt: attempt, proof: proof)
                #expect(refused.status == 400, "\(name): \(refused.text)")
                #expect(refused.jsonObject["error"] as? String == "invalid_dpop_proof", "\(name)")
            }
            let attempt = OAuthFlow.Attempt()
            let code = try await flow.signIn(attempt, extra: ["dpop_jkt": maker.thumbprint])
            let good = try await Self.exchange(
                server, flow, code: code, attempt: attempt, proof: maker.proof("POST", url, issuedAt: server.clock.now()))
            #expect(good.status == 200, "\(good.text)")
            #expect(try good.json(TokenResponse.self).tokenType == "DPoP")
            // A malformed dpop_jkt goes back to the client as invalid_request.
            let malformed = try await flow.authorize(OAuthFlow.Attempt(), extra: ["dpop_jkt": "short"])
            #expect(malformed.status == 303 && malformed.locationQuery["error"] == "invalid_request")
        }
    }

    @Test("a proof sent with the push binds the code; a dpop_jkt naming another key is refused")
    func pushedRequestProof() async throws {
        try await withTestServer { server in
            let maker = DPoPProofMaker()
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let pushed = try await PushedAuthorizationTests.push(
                flow, attempt, headers: ["DPoP": maker.proof("POST", server.issuer + "/par", issuedAt: server.clock.now())])
            #expect(pushed.status == 201, "\(pushed.text)")
            let requestURI = try pushed.json(PushedAuthorizationResponse.self).requestURI
            let page = try await flow.browser.get("/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": requestURI])
            #expect(HTMLForm(html: page.text).fields["dpop_jkt"] == nil, "the binding stays on the server (issue #44)")
            let redirect = try await flow.submitLogin(page: page)
            let code = try #require(redirect.locationQuery["code"])
            let unbound = try await Self.exchange(server, flow, code: code, attempt: attempt, proof: nil)
            #expect(unbound.jsonObject["error"] as? String == "invalid_dpop_proof")

            let mismatch = try await PushedAuthorizationTests.push(
                flow, OAuthFlow.Attempt(), extra: ["dpop_jkt": DPoPProofMaker().thumbprint],
                headers: ["DPoP": maker.proof("POST", server.issuer + "/par", issuedAt: server.clock.now())])
            #expect(mismatch.status == 400)
            #expect(mismatch.jsonObject["error"] as? String == "invalid_dpop_proof")
        }
    }
}
