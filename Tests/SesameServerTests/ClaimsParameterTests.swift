import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// OIDC Core §5.5: the `claims` authorization request parameter, over real HTTP. Claims asked
/// for in `id_token` land in the ID token only, those asked for in `userinfo` at the UserInfo
/// endpoint only; both survive refresh; `sub` with a value answers for that End-User only;
/// an essential `acr` Sesame cannot meet fails the request.
@Suite("claims request parameter")
struct ClaimsParameterTests {
    static let idTokenName = #"{"id_token":{"name":{"essential":true},"email":null,"picture":null}}"#
    static let userinfoName = #"{"userinfo":{"name":{"essential":true},"phone_number":null}}"#

    /// The verified-shape payload of the ID token in `tokens`.
    static func idToken(_ tokens: TokenResponse) throws -> [String: Any] {
        JWTParts.payload(try #require(tokens.idToken))
    }

    /// Signs in through the login form with `scope` and the `claims` parameter; returns the tokens.
    static func tokens(
        _ browser: HTTPTestClient, scope: String = "openid", claims: String,
        clientID: String = Fixtures.nativeApp, redirectURI: String = Fixtures.nativeRedirect
    ) async throws -> TokenResponse {
        var flow = OAuthFlow(browser: browser, clientID: clientID, redirectURI: redirectURI)
        flow.scope = scope
        return try await flow.tokens(extra: ["claims": claims]).0
    }

    static func userInfo(_ tokens: TokenResponse, browser: HTTPTestClient) async throws -> [String: Any] {
        let response = try await browser.userInfo(tokens.accessToken)
        try #require(response.status == 200, "\(response.text)")
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test("discovery says the claims parameter is supported")
    func discovery() async throws {
        try await withTestServer { server in
            let metadata = try await server.client().get("/.well-known/openid-configuration")
                .json(ProviderMetadata.self)
            #expect(metadata.claimsParameterSupported == true)
        }
    }

    @Test("id_token claims (through the login form): in the ID token, not at /userinfo without their scopes")
    func idTokenClaims() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let tokens = try await Self.tokens(browser, claims: Self.idTokenName)
            let idToken = try Self.idToken(tokens)
            #expect(idToken["name"] as? String == "Alice Example")
            #expect(idToken["email"] as? String == Fixtures.email)
            #expect(idToken["picture"] == nil)  // voluntary, and Alice has none
            #expect(idToken["given_name"] == nil)  // not asked for
            let userInfo = try await Self.userInfo(tokens, browser: browser)
            #expect(userInfo["sub"] as? String == idToken["sub"] as? String)
            #expect(userInfo["name"] == nil)
            #expect(userInfo["email"] == nil)
        }
    }

    @Test("userinfo claims: at /userinfo, never in the ID token (OIDC certification: claims essential)")
    func userinfoClaims() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let tokens = try await Self.tokens(browser, claims: Self.userinfoName)
            let userInfo = try await Self.userInfo(tokens, browser: browser)
            #expect(userInfo["name"] as? String == "Alice Example")
            #expect(userInfo["phone_number"] as? String == "+15550100")
            #expect(userInfo["email"] == nil)
            #expect(try Self.idToken(tokens)["name"] == nil)
            // Scope claims and claims-parameter claims combine (§5.5 with §5.4).
            let both = try await Self.tokens(browser, scope: "openid email", claims: Self.userinfoName)
            let all = try await Self.userInfo(both, browser: browser)
            #expect(all["email"] as? String == Fixtures.email)
            #expect(all["name"] as? String == "Alice Example")
            #expect(all["given_name"] == nil)
        }
    }

    @Test("refresh keeps the requested claims, read fresh from the profile")
    func refreshKeepsClaims() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let tokens = try await Self.tokens(
                browser, scope: "openid offline_access", claims: #"{"id_token":{"name":null},"userinfo":{"email":null}}"#)
            var user = try #require(try await server.store.user(login: Fixtures.username))
            user.claims.name = "Alice Renamed"
            try await server.store.updateUser(user)

            let refreshed = try await browser.refresh(try #require(tokens.refreshToken))
            try #require(refreshed.status == 200, "\(refreshed.text)")
            let second = try refreshed.json(TokenResponse.self)
            #expect(try Self.idToken(second)["name"] as? String == "Alice Renamed")
            #expect(try await Self.userInfo(second, browser: browser)["email"] as? String == Fixtures.email)
            // And once more: the successor inherited the request.
            let third = try await browser.refresh(try #require(second.refreshToken)).json(TokenResponse.self)
            #expect(try Self.idToken(third)["name"] as? String == "Alice Renamed")
        }
    }

    @Test("a client not allowed a scope does not get its claims by naming them")
    func claimsOutsideAllowedScopes() async throws {
        try await withTestServer { server in
            try await server.store.upsertClient(
                ClientRecord(
                    clientID: "narrow", name: "Narrow", redirectURIs: ["com.example.narrow:/cb"],
                    allowedScopes: ["openid", "offline_access"]))
            let browser = server.client()
            let claims = #"{"id_token":{"email":{"essential":true},"auth_time":{"essential":true}},"userinfo":{"name":null}}"#
            let tokens = try await Self.tokens(
                browser, claims: claims, clientID: "narrow", redirectURI: "com.example.narrow:/cb")
            let idToken = try Self.idToken(tokens)
            #expect(idToken["email"] == nil)
            #expect(idToken["auth_time"] is Int)
            #expect(try await Self.userInfo(tokens, browser: browser)["name"] == nil)
        }
    }

    @Test(
        "a malformed claims parameter is invalid_request at the redirect URI, with state and iss",
        arguments: ["not json", "[1]", #"{"id_token":5}"#, #"{"id_token":{"name":5}}"#, #"{"userinfo":{"name":{"essential":"yes"}}}"#])
    func malformed(value: String) async throws {
        try await withTestServer { server in
            let attempt = OAuthFlow.Attempt()
            let response = try await OAuthFlow(browser: server.client()).authorize(attempt, extra: ["claims": value])
            #expect(response.status == 303)
            #expect(response.location?.hasPrefix(Fixtures.nativeRedirect + "?") == true)
            #expect(response.locationQuery["error"] == "invalid_request")
            #expect(response.locationQuery["error_description"]?.contains("claims") == true)
            #expect(response.locationQuery["state"] == attempt.state)
            #expect(response.locationQuery["iss"] == server.issuer)
        }
    }

    @Test("unknown claims and members are ignored (§5.5), so is an empty parameter")
    func unknownMembersIgnored() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            let claims = #"{"id_token":{"urn:example:shoe_size":{"essential":true,"x":1}},"other":{}}"#
            let (tokens, _) = try await flow.tokens(extra: ["claims": claims])
            #expect(try Self.idToken(tokens)["urn:example:shoe_size"] == nil)
            let (plain, _) = try await OAuthFlow(browser: server.client()).tokens(extra: ["claims": ""])
            #expect(plain.idToken != nil)
        }
    }

    // MARK: sub (§5.5.1)

    static func subRequest(_ sub: String) -> String { #"{"id_token":{"sub":{"value":"\#(sub)"}}}"# }

    @Test("sub of the signed-in user: SSO answers; another user's sub: login_required with prompt=none, else the form")
    func subWithSession() async throws {
        try await withTestServer { server in
            let bob = try await server.addMFATestUser("bob")
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let (first, _) = try await flow.tokens()
            let alice = try #require(try Self.idToken(first)["sub"] as? String)

            let attempt = OAuthFlow.Attempt()
            let same = try await flow.authorize(attempt, extra: ["prompt": "none", "claims": Self.subRequest(alice)])
            let code = try #require(same.locationQuery["code"], "\(same.location ?? "")")
            let tokens = try await flow.exchange(code, attempt: attempt).json(TokenResponse.self)
            #expect(try Self.idToken(tokens)["sub"] as? String == alice)

            let other = OAuthFlow.Attempt()
            let silent = try await flow.authorize(other, extra: ["prompt": "none", "claims": Self.subRequest(bob.id)])
            #expect(silent.locationQuery["error"] == "login_required")
            #expect(silent.locationQuery["code"] == nil)
            #expect(silent.locationQuery["state"] == other.state)

            let page = try await flow.authorize(.init(), extra: ["claims": Self.subRequest(bob.id)])
            #expect(page.status == 200)
            #expect(HTMLForm(html: page.text).fields["authorization_ref"] != nil, "the login form, not the session")
        }
    }

    @Test("signing in as another user than the requested sub: access_denied, and no session is started")
    func subWithOtherLogin() async throws {
        try await withTestServer { server in
            let bob = try await server.addMFATestUser("bob")
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let attempt = OAuthFlow.Attempt()
            let page = try await flow.authorize(attempt, extra: ["claims": Self.subRequest(bob.id)])
            let refused = try await flow.submitLogin(page: page, username: Fixtures.username)
            #expect(refused.status == 303)
            #expect(refused.locationQuery["error"] == "access_denied")
            #expect(refused.locationQuery["code"] == nil)
            #expect(refused.locationQuery["state"] == attempt.state)
            #expect(refused.header("set-cookie")?.contains("sesame_session") != true)
            let silent = try await flow.authorize(.init(), extra: ["prompt": "none"])
            #expect(silent.locationQuery["error"] == "login_required")

            let again = OAuthFlow.Attempt()
            let accepted = try await flow.submitLogin(
                page: try await flow.authorize(again, extra: ["claims": Self.subRequest(bob.id)]), username: "bob")
            let code = try #require(accepted.locationQuery["code"], "\(accepted.location ?? accepted.text)")
            let tokens = try await flow.exchange(code, attempt: again).json(TokenResponse.self)
            #expect(try Self.idToken(tokens)["sub"] as? String == bob.id)
        }
    }

    // MARK: acr (§5.5.1.1)

    @Test("an essential acr no class can meet fails with access_denied; voluntary, it is ignored")
    func unmeetableACR() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let essential = #"{"id_token":{"acr":{"essential":true,"values":["urn:example:loa:4"]}}}"#
            let refused = try await flow.authorize(attempt, extra: ["claims": essential])
            #expect(refused.locationQuery["error"] == "access_denied")
            #expect(refused.locationQuery["error_description"]?.contains(AuthenticationContextClass.multiFactor) == true)
            #expect(refused.locationQuery["state"] == attempt.state)

            let voluntary = #"{"id_token":{"acr":{"values":["urn:example:loa:4"]}}}"#
            let (tokens, _) = try await flow.tokens(extra: ["claims": voluntary])
            #expect(try Self.idToken(tokens)["acr"] as? String == AuthenticationContextClass.password)
        }
    }

    @Test("an essential mfa acr asks for a second factor like acr_values: a password session is not enough")
    func essentialMultiFactor() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            _ = try await flow.tokens()
            let mfa = #"{"id_token":{"acr":{"essential":true,"values":["urn:sesame:acr:mfa"]}}}"#
            let silent = try await flow.authorize(.init(), extra: ["prompt": "none", "claims": mfa])
            #expect(silent.locationQuery["error"] == "login_required")
            let page = try await flow.authorize(.init(), extra: ["claims": mfa])
            let mfaPage = try await flow.submitLogin(page: page)
            #expect(mfaPage.status == 200)
            #expect(HTMLForm(html: mfaPage.text).fields.keys.contains("mfa_code"))
        }
    }
}

/// The store keeps a granted claims request with the code and through refresh rotation.
@Suite("claims request storage")
struct ClaimsRequestStorageTests {
    @Test("granting keeps known claims within the client's scopes and the protocol claims")
    func granting() throws {
        let text = #"{"id_token":{"sub":{"value":"u1"},"acr":null,"auth_time":{"essential":true},"email":null,"name":null,"x":null},"userinfo":{"phone_number":null,"sub":null}}"#
        let granted = try RequestedClaims(parsing: text, allowedScopes: ["openid", "profile"])
        #expect(granted.idTokenClaims == ["name"])
        #expect(granted.userinfoClaims.isEmpty)
        #expect(granted.subject == "u1")
        #expect(granted.admits(userID: "u1"))
        #expect(!granted.admits(userID: "u2"))
        #expect(Set(granted.request.idToken.keys) == ["sub", "acr", "auth_time", "name"])
        // Granting again what was granted changes nothing (the login form re-posts it).
        #expect(try RequestedClaims(parsing: granted.request.json, allowedScopes: ["openid", "profile"]) == granted)
        for unanswerable in [#"{"sub":{"values":["a","b"]}}"#, #"{"sub":{"value":42}}"#] {
            #expect(throws: RequestedClaimsRefusal.self) {
                try RequestedClaims(parsing: #"{"id_token":\#(unanswerable)}"#, allowedScopes: [])
            }
        }
    }

    @Test(
        "an essential acr is reported as one of the requested values when the sign-in includes one (§5.5.1.1)",
        arguments: [
            (#"{"essential":true,"values":["urn:sesame:acr:pwd"]}"#, "urn:sesame:acr:mfa", "urn:sesame:acr:pwd"),
            (#"{"essential":true,"values":["urn:sesame:acr:pwd"]}"#, "urn:sesame:acr:pwd", "urn:sesame:acr:pwd"),
            (#"{"essential":true,"values":["urn:sesame:acr:mfa"]}"#, "urn:sesame:acr:pwd", "urn:sesame:acr:pwd"),
            (#"{"essential":true,"value":"urn:sesame:acr:pwd","values":["urn:sesame:acr:mfa"]}"#,
             "urn:sesame:acr:mfa", "urn:sesame:acr:mfa"),
            (#"{"values":["urn:sesame:acr:pwd"]}"#, "urn:sesame:acr:mfa", "urn:sesame:acr:mfa"),
        ])
    func reportedACR(request: String, actual: String, reported: String) throws {
        let claims = try RequestedClaims(parsing: #"{"id_token":{"acr":\#(request)}}"#, allowedScopes: [])
        #expect(claims.reportedACR(actual) == reported)
    }

    @Test("acr values from claims take precedence over acr_values")
    func acrPrecedence() throws {
        let claims = try RequestedClaims(
            parsing: #"{"id_token":{"acr":{"essential":true,"values":["urn:sesame:acr:mfa"]}}}"#, allowedScopes: [])
        var request = AuthorizationRequest(
            clientID: "c", redirectURI: "r", scopes: ["openid"], codeChallenge: nil,
            prompt: PromptPolicy(values: [], maxAge: nil), acrValues: "urn:sesame:acr:pwd urn:sesame:acr:mfa")
        #expect(request.requestedACRValues == "urn:sesame:acr:pwd urn:sesame:acr:mfa")
        request.claims = claims
        #expect(request.requestedACRValues == "urn:sesame:acr:mfa")
    }

    @Test("codes and rotated refresh tokens keep the claims request (real SQLite)")
    func roundTrip() async throws {
        try await withTestServer { server in
            let claims = ClaimsRequest(userinfo: ["email": .init()], idToken: ["name": .init(essential: true)])
            let store = server.store
            let user = try #require(try await store.user(login: Fixtures.username))
            let authentication = AuthenticationContext(userID: user.id, authTime: Date())
            let now = Date()
            try await store.insertAuthorizationCode(
                AuthorizationCodeRecord(
                    codeDigest: "code-digest", clientID: Fixtures.nativeApp, redirectURI: Fixtures.nativeRedirect,
                    scope: "openid", nonce: nil, codeChallenge: nil, authentication: authentication, sessionID: nil,
                    expiresAt: now.addingTimeInterval(60), claims: claims))
            guard case .redeemed(let code) = try await store.redeemAuthorizationCode(digest: "code-digest", now: now)
            else { Issue.record("the code was not redeemed"); return }
            #expect(code.claims == claims)

            try await store.insertRefreshToken(
                RefreshTokenRecord(
                    tokenDigest: "parent", familyID: "family", clientID: Fixtures.nativeApp, scope: "openid",
                    authentication: authentication, sessionID: nil, issuedAt: now,
                    expiresAt: now.addingTimeInterval(600), claims: claims))
            let successor = RefreshTokenSuccessor(
                tokenDigest: "child", issuedAt: now, expiresAt: now.addingTimeInterval(600))
            guard case .redeemed(let parent) = try await store.rotateRefreshToken(digest: "parent", into: successor)
            else { Issue.record("the token did not rotate"); return }
            #expect(parent.claims == claims)
            #expect(try await store.refreshToken(digest: "child")?.claims == claims)
        }
    }
}
