import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Authorization challenge endpoint: password sign-in")
struct AuthorizationChallengeTests {
    @Test("password only: code → /token without redirect_uri; tokens carry acr pwd and amr [pwd]")
    func passwordOnly() async throws {
        try await withTestServer { server in
            let flow = ChallengeFlow(server)
            let response = try await flow.start()
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            let code = try ChallengeFlow.code(response)
            #expect(Base64URL.decode(code)?.count == 32)

            let tokens = try await flow.tokens(code)
            #expect(tokens.refreshToken != nil)
            #expect(tokens.expiresIn == 900)
            let idToken = try #require(tokens.idToken)
            let claims = try await server.keyRing.verify(idToken, as: IDTokenClaims.self)
            let user = try #require(try await server.store.user(login: Fixtures.username))
            #expect(claims.sub == user.id)
            #expect(claims.aud == Fixtures.nativeApp)
            #expect(claims.acr == AuthenticationContextClass.password)
            #expect(claims.amr == ["pwd"])
            #expect(claims.nonce == nil)
            #expect(abs(Double(claims.authTime) - server.clock.now().timeIntervalSince1970) < 60)
            let access = JWTParts.payload(tokens.accessToken)
            #expect(access["acr"] as? String == AuthenticationContextClass.password)
            #expect(access["amr"] as? [String] == ["pwd"])
            #expect(try await server.client().userInfo(tokens.accessToken).status == 200)

            // Single use, like every code.
            let replay = try await flow.exchange(code)
            #expect(replay.status == 400)
            #expect(try ChallengeFlow.error(replay).error == "invalid_grant")
        }
    }

    @Test("the email address works as the username")
    func emailAsUsername() async throws {
        try await withTestServer { server in
            let response = try await ChallengeFlow(server).start(username: Fixtures.email.uppercased())
            #expect(response.status == 200, "\(response.text)")
        }
    }

    @Test("first-party codes need no redirect_uri and refuse one; the PKCE verifier is checked")
    func tokenRequestRules() async throws {
        try await withTestServer { server in
            let flow = ChallengeFlow(server)
            let withRedirect = try await flow.http.postForm(
                "/token",
                [
                    "grant_type": "authorization_code", "code": try ChallengeFlow.code(try await flow.start()),
                    "client_id": flow.clientID, "code_verifier": flow.pkce.verifier,
                    "redirect_uri": Fixtures.nativeRedirect,
                ])
            #expect(withRedirect.status == 400)
            #expect(try ChallengeFlow.error(withRedirect).error == "invalid_grant")

            let wrongVerifier = try await flow.exchange(
                try ChallengeFlow.code(try await flow.start()), verifier: PKCE().verifier)
            #expect(wrongVerifier.status == 400)
            #expect(try ChallengeFlow.error(wrongVerifier).errorDescription?.contains("code_verifier") == true)
        }
    }

    @Test("wrong password and unknown user get the same invalid_grant 2000 answer")
    func wrongCredentials() async throws {
        try await withTestServer { server in
            let flow = ChallengeFlow(server)
            let wrong = try await flow.start(password: "not the password")
            let unknown = try await flow.start(username: "nobody")
            for response in [wrong, unknown] {
                #expect(response.status == 400)
                let error = try ChallengeFlow.error(response)
                #expect(error.error == "invalid_grant")
                #expect(error.errorCode == 2000)
                #expect(error.errorDescription == APIErrorCode.invalidCredentials.defaultDescription)
                #expect(error.authSession == nil)
            }
        }
    }

    @Test("missing username and password: 3000 with localized error_details")
    func missingFields() async throws {
        try await withTestServer { server in
            let response = try await ChallengeFlow(server).start(username: "", password: "")
            #expect(response.status == 400)
            let error = try ChallengeFlow.error(response)
            #expect(error.errorCode == APIErrorCode.validationFailed.rawValue)
            #expect(error.errorDetails?.map(\.field) == ["username", "password"])
            #expect(error.errorDetails?.allSatisfy { $0.code == "required" && !$0.message.isEmpty } == true)
        }
    }

    @Test("PKCE: missing challenge, plain method and a malformed challenge are refused")
    func pkce() async throws {
        try await withTestServer { server in
            let flow = ChallengeFlow(server)
            var missing = flow.startParameters()
            missing["code_challenge"] = nil
            var plain = flow.startParameters()
            plain["code_challenge_method"] = "plain"
            var noMethod = flow.startParameters()
            noMethod["code_challenge_method"] = nil
            for form in [missing, plain, noMethod] {
                let response = try await flow.http.postForm("/authorize-challenge", form)
                #expect(response.status == 400)
                let error = try ChallengeFlow.error(response)
                #expect(error.errorCode == APIErrorCode.pkceRequired.rawValue)
                #expect(error.error == "invalid_request")
            }
            var malformed = flow.startParameters()
            malformed["code_challenge"] = "short"
            let response = try await flow.http.postForm("/authorize-challenge", malformed)
            #expect(try ChallengeFlow.error(response).errorCode == APIErrorCode.invalidRequest.rawValue)
        }
    }

    @Test("client and scope: unknown client 401, disallowed scope, client without the code grant")
    func clientAndScope() async throws {
        try await withTestServer { server in
            var flow = ChallengeFlow(server, clientID: "nobody")
            let unknown = try await flow.start()
            #expect(unknown.status == 401)
            #expect(try ChallengeFlow.error(unknown).error == "invalid_client")

            flow.clientID = Fixtures.nativeApp
            flow.scope = "openid api.write"
            let scope = try await flow.start()
            #expect(scope.status == 400)
            #expect(try ChallengeFlow.error(scope).error == "invalid_scope")

            try await server.store.upsertClient(
                ClientRecord(
                    clientID: "machine", name: "Machine", secretHash: try TestServer.hasher.hash(Fixtures.backendSecret),
                    grantTypes: [.clientCredentials], tokenEndpointAuthMethod: .clientSecretPost, firstParty: true))
            flow.clientID = "machine"
            flow.scope = "openid"
            let grant = try await flow.start(extra: ["client_secret": Fixtures.backendSecret])
            #expect(grant.status == 400)
            #expect(try ChallengeFlow.error(grant).error == "unauthorized_client")
        }
    }

    @Test("a confidential client must authenticate (client_secret_basic)")
    func confidentialClient() async throws {
        try await withTestServer { server in
            var backend = try #require(try await server.store.client(id: Fixtures.backend))
            backend.firstParty = true
            try await server.store.upsertClient(backend)
            var flow = ChallengeFlow(server, clientID: Fixtures.backend)
            flow.scope = "openid"
            // No Basic header is sent on the failing request, so no Basic challenge comes back
            // and URLSession can read the 401 (see RawHTTP).
            let withoutSecret = try await flow.http.postForm("/authorize-challenge", flow.startParameters())
            #expect(withoutSecret.status == 401)
            #expect(try ChallengeFlow.error(withoutSecret).error == "invalid_client")
            let form = flow.startParameters().filter { $0.key != "client_id" }
            let response = try await flow.http.postForm(
                "/authorize-challenge", form, headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            let code = try ChallengeFlow.code(response)
            let tokens = try await flow.http.postForm(
                "/token",
                ["grant_type": "authorization_code", "code": code, "code_verifier": flow.pkce.verifier],
                headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            #expect(tokens.status == 200, "\(tokens.text)")
        }
    }

    @Test("parameters in the URL are refused; the body must be form-encoded")
    func transport() async throws {
        try await withTestServer { server in
            let flow = ChallengeFlow(server)
            let inURL = try await flow.http.postForm("/authorize-challenge?password=x", flow.startParameters())
            #expect(inURL.status == 400)
            let json = try await flow.http.post(
                "/authorize-challenge", body: Data("{}".utf8), headers: ["Content-Type": "application/json"])
            #expect(json.status == 400)
            #expect(try ChallengeFlow.error(json).error == "invalid_request")
        }
    }

    @Test("ui_locales chooses the language of error_user_msg over Accept-Language")
    func localizedUserMessage() async throws {
        try await withTestServer { server in
            let key = APIErrorCode.invalidCredentials.messageKey
            let localizer = StringTableLocalizer()
            let response = try await ChallengeFlow(server).start(
                password: "wrong", extra: ["ui_locales": "de"], headers: ["Accept-Language": "fr"])
            let error = try ChallengeFlow.error(response)
            #expect(error.errorMessageKey == key)
            #expect(error.errorUserMessage == localizer.string(key, locales: ["de"]))
            if localizer.resolvedLocale(for: ["de"]) == "de" {
                #expect(error.errorUserMessage != localizer.string(key, locales: ["en"]))
            }
            let english = try ChallengeFlow.error(try await ChallengeFlow(server).start(password: "wrong"))
            #expect(english.errorUserMessage == StringTables.english[key])
        }
    }

    @Test("discovery advertises the endpoint and both acr values")
    func discovery() async throws {
        try await withTestServer { server in
            let metadata = try await server.client().get("/.well-known/openid-configuration")
                .json(ProviderMetadata.self)
            #expect(metadata.authorizationChallengeEndpoint?.absoluteString == server.issuer + "/authorize-challenge")
            #expect(metadata.acrValuesSupported == AuthenticationContextClass.all)
        }
    }
}
