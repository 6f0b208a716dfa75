import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Authorization code flow with PKCE")
struct AuthorizationCodeFlowTests {
    @Test("full flow: login form, 303 with code/state/iss, token exchange, ID token claims", arguments: StoreBackend.available)
    func fullFlow(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let attempt = OAuthFlow.Attempt()

            let page = try await flow.authorize(attempt)
            #expect(page.status == 200)
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            let form = HTMLForm(html: page.text)
            #expect(form.action == "/login")
            // The request is held on the server (issue #44): the form names it by reference only.
            let reference = try #require(form.fields["authorization_ref"])
            #expect(form.fields["client_id"] == nil && form.fields["state"] == nil)
            #expect(form.fields["csrf_token"]?.count == 43 && form.fields["csrf_token"] != browser.cookie("sesame_csrf"), "the CSRF field is a MAC of the pre-session cookie, not a copy")
            // The account pages name the same request, so they can lead back to it.
            #expect(page.text.contains("href=\"/signup?authorization_ref=\(reference)\""))
            #expect(page.text.contains("href=\"/password-reset?authorization_ref=\(reference)\""))

            let redirect = try await flow.submitLogin(page: page)
            #expect(redirect.status == 303)
            let location = try #require(redirect.location)
            #expect(location.hasPrefix(Fixtures.nativeRedirect + "?"))
            #expect(redirect.locationQuery["state"] == attempt.state)
            #expect(redirect.locationQuery["iss"] == server.issuer)
            let code = try #require(redirect.locationQuery["code"])
            #expect(Base64URL.decode(code)?.count == 32)
            #expect(browser.cookie("sesame_session") != nil)

            let tokenResponse = try await flow.exchange(code, attempt: attempt)
            #expect(tokenResponse.status == 200)
            #expect(tokenResponse.header("Cache-Control") == "no-store")
            #expect(tokenResponse.header("Pragma") == "no-cache")
            let tokens = try tokenResponse.json(TokenResponse.self)
            #expect(tokens.tokenType == "Bearer")
            #expect(tokens.expiresIn == 900)
            #expect(tokens.refreshToken != nil)

            let idToken = try #require(tokens.idToken)
            let claims = try await server.keyRing.verify(idToken, as: IDTokenClaims.self)
            let user = try #require(try await server.store.user(login: Fixtures.username))
            #expect(JWTParts.header(idToken)["alg"] as? String == "RS256")
            #expect(claims.iss == server.issuer)
            #expect(claims.sub == user.id)
            #expect(claims.aud == Fixtures.nativeApp)
            #expect(claims.azp == Fixtures.nativeApp)
            #expect(claims.nonce == attempt.nonce)
            #expect(claims.sid != nil)
            #expect(claims.amr == ["pwd"])
            #expect(claims.atHash == TokenIssuer.atHash(tokens.accessToken))
            #expect(abs(Double(claims.authTime) - server.clock.now().timeIntervalSince1970) < 120)

            let header = JWTParts.header(tokens.accessToken)
            #expect(header["typ"] as? String == "at+jwt")
            let access = JWTParts.payload(tokens.accessToken)
            #expect(access["client_id"] as? String == Fixtures.nativeApp)
            #expect(access["sub"] as? String == user.id)
            #expect(access["scope"] as? String == "openid profile email offline_access")
            #expect(access["jti"] is String)
        }
    }

    @Test("ID token signed ES256 for a client configured so", arguments: StoreBackend.available)
    func perClientAlgorithm(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = OAuthFlow(
                browser: server.client(), clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect,
                scope: "openid")
            let (tokens, _) = try await flow.tokens()
            let idToken = try #require(tokens.idToken)
            #expect(JWTParts.header(idToken)["alg"] as? String == "ES256")
            _ = try await server.keyRing.verify(idToken, as: IDTokenClaims.self)
        }
    }

    /// Signs in through the hosted login page and redeems the code once.
    static func redeemedCode(
        _ server: TestServer
    ) async throws -> (flow: OAuthFlow, attempt: OAuthFlow.Attempt, code: String, tokens: TokenResponse) {
        let flow = OAuthFlow(browser: server.client())
        let attempt = OAuthFlow.Attempt()
        let code = try await flow.signIn(attempt)
        let first = try await flow.exchange(code, attempt: attempt)
        #expect(first.status == 200)
        return (flow, attempt, code, try first.json(TokenResponse.self))
    }

    /// Right away, and after the code's 60 s lifetime (a replay is detected as long as the
    /// code is stored, RFC 6749 §4.1.2).
    @Test("code replay fails and revokes the tokens of the first redemption", arguments: [0.0, 61.0])
    func codeReplay(after delay: TimeInterval) async throws {
        try await withTestServer { server in
            let (flow, attempt, code, tokens) = try await Self.redeemedCode(server)
            let browser = flow.browser
            let refreshToken = try #require(tokens.refreshToken)
            #expect(try await browser.introspect(refreshToken).jsonObject["active"] as? Bool == true)

            server.clock.advance(by: delay)
            let replay = try await flow.exchange(code, attempt: attempt)
            #expect(replay.status == 400)
            let error = try replay.json(APIError.self)
            #expect(error.error == "invalid_grant")
            #expect(error.errorDescription?.contains("already used") == true)

            #expect(try await browser.introspect(refreshToken).jsonObject["active"] as? Bool == false)
            let refresh = try await browser.refresh(refreshToken)
            #expect(refresh.status == 400)
            #expect(try refresh.json(APIError.self).error == "invalid_grant")
            #expect(try await browser.userInfo(tokens.accessToken).status == 401)
        }
    }

    @Test("another client replaying a used code gets invalid_grant and revokes nothing", arguments: StoreBackend.available)
    func codeReplayByAnotherClient(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let (flow, attempt, code, tokens) = try await Self.redeemedCode(server)
            let browser = flow.browser

            for delay in [0.0, 61.0] {
                server.clock.advance(by: delay)
                let other = OAuthFlow(browser: browser, clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect)
                let replay = try await other.exchange(code, attempt: attempt)
                #expect(replay.status == 400)
                let error = try replay.json(APIError.self)
                #expect(error.error == "invalid_grant")
                #expect(error.errorDescription == "The code was issued to another client.")
            }

            let refresh = try await browser.refresh(try #require(tokens.refreshToken))
            #expect(refresh.status == 200, "\(refresh.text)")
            #expect(try await browser.userInfo(tokens.accessToken).status == 200)
        }
    }

    @Test("expired code is refused", arguments: StoreBackend.available)
    func expiredCode(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let code = try await flow.signIn(attempt)
            server.clock.advance(by: 61)
            let response = try await flow.exchange(code, attempt: attempt)
            #expect(response.status == 400)
            #expect(try response.json(APIError.self).error == "invalid_grant")
        }
    }

    @Test("wrong code_verifier, missing code_verifier and wrong redirect_uri are invalid_grant", arguments: StoreBackend.available)
    func tokenRequestChecks(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)

            let wrongVerifier = OAuthFlow.Attempt()
            let code1 = try await flow.signIn(wrongVerifier)
            var other = wrongVerifier
            other.pkce = PKCE()
            let response1 = try await flow.exchange(code1, attempt: other)
            #expect(response1.status == 400)
            #expect(try response1.json(APIError.self).error == "invalid_grant")

            let missing = OAuthFlow.Attempt()
            let code2 = try await flow.signIn(missing)
            let response2 = try await browser.postForm(
                "/token",
                [
                    "grant_type": "authorization_code", "code": code2,
                    "redirect_uri": Fixtures.nativeRedirect, "client_id": Fixtures.nativeApp,
                ])
            #expect(response2.status == 400)
            #expect(try response2.json(APIError.self).error == "invalid_grant")

            let wrongRedirect = OAuthFlow.Attempt()
            let code3 = try await flow.signIn(wrongRedirect)
            let response3 = try await flow.exchange(
                code3, attempt: wrongRedirect, redirectURI: Fixtures.loopbackRegistered)
            #expect(response3.status == 400)
            #expect(try response3.json(APIError.self).error == "invalid_grant")
        }
    }

    @Test("public client: missing PKCE and plain PKCE are refused with an error redirect (RFC 9700 §2.1.1)", arguments: StoreBackend.available)
    func publicClientPKCERequired(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            var flow = OAuthFlow(browser: server.client())
            flow.sendsPKCE = false
            let attempt = OAuthFlow.Attempt()
            let missing = try await flow.authorize(attempt)
            #expect(missing.status == 303)
            #expect(missing.locationQuery["error"] == "invalid_request")
            #expect(missing.locationQuery["error_description"] == "code_challenge is required (PKCE S256).")
            #expect(missing.locationQuery["state"] == attempt.state)
            #expect(missing.locationQuery["iss"] == server.issuer)
            #expect(missing.locationQuery["code"] == nil)
            flow.sendsPKCE = true

            let plain = try await flow.authorize(
                attempt, extra: ["code_challenge": attempt.pkce.verifier, "code_challenge_method": "plain"])
            #expect(plain.status == 303)
            #expect(plain.locationQuery["error"] == "invalid_request")

            var absentMethod = flow.parameters(attempt)
            absentMethod["code_challenge_method"] = nil
            let implicitPlain = try await flow.browser.get("/authorize", query: absentMethod)
            #expect(implicitPlain.locationQuery["error"] == "invalid_request")
        }
    }

    @Test("unknown client and unregistered redirect_uri get an error page, never a redirect", arguments: StoreBackend.available)
    func noOpenRedirect(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            var flow = OAuthFlow(browser: server.client())
            flow.clientID = "nobody"
            let unknown = try await flow.authorize(.init())
            #expect(unknown.status == 400)
            #expect(unknown.location == nil)
            #expect(unknown.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(unknown.text.contains("not registered"))

            flow.clientID = Fixtures.nativeApp
            flow.redirectURI = "https://evil.example.com/cb"
            let badRedirect = try await flow.authorize(.init())
            #expect(badRedirect.status == 400)
            #expect(badRedirect.location == nil)

            flow.redirectURI = Fixtures.nativeRedirect + "/extra"
            #expect(try await flow.authorize(.init()).location == nil)
        }
    }

    @Test("loopback redirect URIs match on any port (RFC 8252 §7.3), nothing else does", arguments: StoreBackend.available)
    func loopbackPorts(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            var flow = OAuthFlow(browser: server.client())
            flow.redirectURI = "http://127.0.0.1:53124/callback"
            let attempt = OAuthFlow.Attempt()
            let code = try await flow.signIn(attempt)
            let tokens = try await flow.exchange(code, attempt: attempt)
            #expect(tokens.status == 200)

            flow.redirectURI = "http://localhost:53124/callback"
            #expect(try await flow.authorize(.init()).status == 400)
            flow.redirectURI = "http://127.0.0.1:53124/other"
            #expect(try await flow.authorize(.init()).status == 400)
        }
    }

    @Test("other request errors redirect back with error, state and iss", arguments: StoreBackend.available)
    func redirectedErrors(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let token = try await flow.authorize(attempt, extra: ["response_type": "token"])
            #expect(token.locationQuery["error"] == "unsupported_response_type")
            let scope = try await flow.authorize(attempt, extra: ["scope": "openid admin"])
            #expect(scope.locationQuery["error"] == "invalid_scope")
            let prompt = try await flow.authorize(attempt, extra: ["prompt": "bogus"])
            #expect(prompt.locationQuery["error"] == "invalid_request")
            let negativeMaxAge = try await flow.authorize(attempt, extra: ["max_age": "-1"])
            #expect(negativeMaxAge.locationQuery["error"] == "invalid_request")
            #expect(negativeMaxAge.locationQuery["iss"] == server.issuer)
        }
    }

    @Test("prompt=none without a session answers login_required", arguments: StoreBackend.available)
    func promptNoneWithoutSession(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let response = try await flow.authorize(attempt, extra: ["prompt": "none"])
            #expect(response.status == 303)
            #expect(response.locationQuery["error"] == "login_required")
            #expect(response.locationQuery["state"] == attempt.state)
            #expect(response.locationQuery["iss"] == server.issuer)
        }
    }

    @Test("client without refresh_token grant gets no refresh token", arguments: StoreBackend.available)
    func noRefreshToken(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = OAuthFlow(
                browser: server.client(), clientID: Fixtures.noRefreshApp,
                redirectURI: Fixtures.noRefreshRedirect, scope: "openid offline_access")
            let (tokens, _) = try await flow.tokens()
            #expect(tokens.refreshToken == nil)
            #expect(tokens.idToken != nil)
        }
    }
}
