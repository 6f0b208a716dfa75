import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Hosted login page: MFA step")
struct HostedLoginMFATests {
    /// Submits the MFA page `page` with `fields` added (a chosen method or a code).
    static func submit(_ page: TestResponse, _ fields: [String: String], browser: HTTPTestClient) async throws
        -> TestResponse
    {
        let form = HTMLForm(html: page.text)
        #expect(form.action == "/login")
        return try await browser.postForm("/login", form.fields.merging(fields) { $1 })
    }

    @Test("one method: the code is sent at once; a correct code finishes the sign-in with acr mfa")
    func emailStep() async throws {
        try await withTestServer { server in
            try await enrollmentClient(server).enableEmail()
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let attempt = OAuthFlow.Attempt()
            let login = try await flow.authorize(attempt)
            let mfaPage = try await flow.submitLogin(page: login)
            #expect(mfaPage.status == 200)
            #expect(mfaPage.header("Cache-Control") == "no-store")
            #expect(mfaPage.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            #expect(mfaPage.header("Content-Security-Policy")?.contains("form-action 'self' com.example.app:;") == true)
            #expect(!mfaPage.text.contains("<script"))
            #expect(mfaPage.text.contains(StringTables.english["mfa.title"]!.replacingOccurrences(of: "'", with: "&#39;")))
            #expect(mfaPage.text.contains("We sent a code to a***@example.com."))
            #expect(browser.cookie("sesame_session") == nil)
            let fields = HTMLForm(html: mfaPage.text).fields
            #expect(fields["csrf_token"]?.count == 43 && fields["csrf_token"] != browser.cookie("sesame_csrf"), "the CSRF field is a MAC of the pre-session cookie, not a copy")
            #expect(fields["authorization_ref"]?.count == 43 && fields["state"] == nil, "the request is held on the server")
            #expect(fields["auth_session"]?.isEmpty == false)
            #expect(fields["password"] == nil)
            #expect(fields.keys.contains("mfa_code"))

            let code = try await server.lastMFACode(to: Fixtures.email)
            let redirect = try await Self.submit(mfaPage, ["mfa_code": code], browser: browser)
            #expect(redirect.status == 303, "\(redirect.text)")
            #expect(redirect.locationQuery["state"] == attempt.state)
            #expect(browser.cookie("sesame_session") != nil)
            let tokens = try await flow.exchange(try #require(redirect.locationQuery["code"]), attempt: attempt)
                .json(TokenResponse.self)
            let claims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            #expect(claims.acr == AuthenticationContextClass.multiFactor)
            #expect(claims.amr == ["pwd", "otp", "mfa"])
            #expect(claims.nonce == attempt.nonce)
            #expect(claims.sid != nil)

            // The browser session carries the MFA authentication to the next app (SSO).
            let second = OAuthFlow(
                browser: browser, clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect, scope: "openid")
            let (secondTokens, _) = try await second.tokens()
            let secondClaims = try await server.keyRing.verify(try #require(secondTokens.idToken), as: IDTokenClaims.self)
            #expect(secondClaims.acr == AuthenticationContextClass.multiFactor)
        }
    }

    @Test("several methods: choose one; wrong code shows the error; TOTP works")
    func chooseAndRetry() async throws {
        try await withTestServer { server in
            let enrolment = try await enrollmentClient(server)
            try await enrolment.enableEmail()
            let totp = try await enrolment.enrollTOTP(clock: server.clock)
            server.clock.advance(by: 30)
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let attempt = OAuthFlow.Attempt()
            let choice = try await flow.submitLogin(page: try await flow.authorize(attempt))
            #expect(choice.status == 200)
            #expect(choice.text.contains(#"name="mfa_method" value="email""#))
            #expect(choice.text.contains(#"name="mfa_method" value="totp""#))
            #expect(!choice.text.contains(#"value="sms""#))
            #expect(try await server.mfaMessageCount(to: Fixtures.email) == 0)

            let codePage = try await Self.submit(choice, ["mfa_method": "totp"], browser: browser)
            #expect(codePage.status == 200)
            #expect(codePage.text.contains(StringTables.english["mfa.totp_hint"]!))
            let right = totp.code(at: server.clock.now())
            let wrongPage = try await Self.submit(
                codePage, ["mfa_code": right == "000000" ? "000001" : "000000"], browser: browser)
            #expect(wrongPage.status == 400)
            #expect(wrongPage.text.contains("role=\"alert\""))
            #expect(wrongPage.text.contains(StringTables.english[APIErrorCode.invalidMFACode.messageKey]!))
            let redirect = try await Self.submit(wrongPage, ["mfa_code": right], browser: browser)
            #expect(redirect.status == 303, "\(redirect.text)")
            #expect(redirect.locationQuery["code"] != nil)
        }
    }

    @Test("the MFA step cannot skip CSRF, change the request, or outlive its auth session")
    func tampering() async throws {
        try await withTestServer { server in
            try await enrollmentClient(server).enableEmail()
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let page = try await flow.submitLogin(page: try await flow.authorize(.init()))
            let code = try await server.lastMFACode(to: Fixtures.email)

            let csrf = browser.cookie("sesame_csrf")
            browser.setCookie("sesame_csrf", SecureRandom.token())
            let noCSRF = try await Self.submit(page, ["mfa_code": code], browser: browser)
            #expect(noCSRF.status == 403)
            browser.setCookie("sesame_csrf", csrf)

            // A field added to change the request is ignored: the held request is what signs in
            // (issue #44), and the auth session stays bound to it.
            var changed = HTMLForm(html: page.text).fields
            changed["code_challenge"] = PKCE().challenge
            changed["redirect_uri"] = Fixtures.secondRedirect
            changed["mfa_code"] = code
            let swapped = try await browser.postForm("/login", changed)
            #expect(swapped.status == 303, "\(swapped.text)")
            #expect(swapped.location?.hasPrefix(Fixtures.nativeRedirect + "?") == true)
            browser.setCookie("sesame_session", nil)

            // An auth session outlives neither its lifetime nor a restart of the sign-in.
            let fresh = try await flow.submitLogin(page: try await flow.authorize(.init()))
            server.clock.advance(by: AuthSessionFlow.maximumLifetime + 1)
            let late = try await Self.submit(
                fresh, ["mfa_code": try await server.lastMFACode(to: Fixtures.email)], browser: browser)
            #expect(late.status == 400)
            #expect(late.text.contains(StringTables.english[APIErrorCode.invalidAuthSession.messageKey]!))
            #expect(browser.cookie("sesame_session") == nil)
        }
    }

    /// A browser signed in with the password alone, through a client that never asks for MFA
    /// (`relaxed-web`); the browser and that client's flow.
    static func passwordOnlySession(_ server: TestServer) async throws -> (HTTPTestClient, OAuthFlow) {
        try await server.store.upsertClient(
            ClientRecord(
                clientID: "relaxed-web", name: "Relaxed", redirectURIs: ["com.example.relaxed:/cb"], mfaPolicy: .never))
        let browser = server.client()
        let relaxed = OAuthFlow(browser: browser, clientID: "relaxed-web", redirectURI: "com.example.relaxed:/cb")
        _ = try await relaxed.tokens()
        #expect(browser.cookie("sesame_session") != nil)
        return (browser, relaxed)
    }

    @Test("a password-only SSO session does not skip the second factor another client requires")
    func ssoDoesNotSkipMFA() async throws {
        try await withTestServer { server in
            try await enrollmentClient(server).enableEmail()
            let (browser, relaxed) = try await Self.passwordOnlySession(server)
            #expect(try await server.mfaMessageCount(to: Fixtures.email) == 0)

            // The native app (when_enrolled, the user has email codes): login form, not a code.
            let flow = OAuthFlow(browser: browser)
            let page = try await flow.authorize(.init())
            #expect(page.status == 200)
            #expect(page.text.contains(#"name="password""#))
            let silent = try await flow.authorize(.init(), extra: ["prompt": "none"])
            #expect(silent.status == 303)
            #expect(silent.locationQuery["error"] == "login_required")
            // The relaxed client still gets SSO.
            let again = try await relaxed.authorize(.init())
            #expect(again.status == 303)
            #expect(again.locationQuery["code"] != nil)
        }
    }

    @Test("a password-only SSO session does not skip the second factor when the user's only one is a passkey")
    func ssoDoesNotSkipPasskey() async throws {
        try await withTestServer { server in
            let (browser, relaxed) = try await Self.passwordOnlySession(server)

            // Then the user registers a passkey: the native app (when_enrolled) asks for it again.
            let user = try #require(try await server.store.user(login: Fixtures.username))
            let passkeys = server.store
            try await passkeys.insertPasskey(
                PasskeyRecord(
                    credentialID: "cred", userID: user.id, publicKey: Data([0xa0]), signCount: 0, uvInitialized: true,
                    backupEligible: false, backupState: false, transports: [], aaguid: "", attestationFormat: "none",
                    name: "Phone", createdAt: Date()))
            let silent = try await OAuthFlow(browser: browser).authorize(.init(), extra: ["prompt": "none"])
            #expect(silent.status == 303)
            #expect(silent.locationQuery["error"] == "login_required")
            #expect(try await relaxed.authorize(.init()).locationQuery["code"] != nil, "the relaxed client still gets SSO")
        }
    }

    @Test("the MFA page follows ui_locales: language, direction and the code message")
    func localizedPage() async throws {
        try await withTestServer { server in
            try await enrollmentClient(server).enableEmail()
            let flow = OAuthFlow(browser: server.client())
            let page = try await flow.submitLogin(page: try await flow.authorize(.init(), extra: ["ui_locales": "ar"]))
            #expect(page.status == 200)
            let localizer = StringTableLocalizer()
            #expect(page.text.contains(#"lang="\#(localizer.resolvedLocale(for: ["ar"]))""#))
            if localizer.resolvedLocale(for: ["ar"]) == "ar" { #expect(page.text.contains(#"dir="rtl""#)) }
            let label = localizer.string("mfa.code_label", locales: ["ar"])
            #expect(page.text.contains(label))
            let message = try #require(try await server.mfaOutbox.messages(to: Fixtures.email).last)
            #expect(message.subject == localizer.string("message.mfa_code.subject", locales: ["ar"]))
        }
    }

    @Test("policy always without any usable method: the login form explains, no session")
    func unavailable() async throws {
        try await withTestServer { server in
            try await server.store.upsertClient(
                ClientRecord(
                    clientID: "strict-web", name: "Strict", redirectURIs: ["com.example.strict:/cb"], mfaPolicy: .always))
            _ = try await server.addMFATestUser("dave", emailVerified: false)
            let browser = server.client()
            let flow = OAuthFlow(browser: browser, clientID: "strict-web", redirectURI: "com.example.strict:/cb")
            let response = try await flow.submitLogin(page: try await flow.authorize(.init()), username: "dave")
            #expect(response.status == 403)
            #expect(response.location == nil)
            #expect(browser.cookie("sesame_session") == nil)
            let message = StringTables.english[APIErrorCode.mfaMethodUnavailable.messageKey]!
            #expect(response.text.contains(message.replacingOccurrences(of: "'", with: "&#39;")))
        }
    }
}
