import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// The authorization request belongs to the server (issue #44, RFC 9126 §4, RFC 9449 §10): once
/// `/authorize` accepts a request, the login form carries only an opaque reference to it, bound
/// to the browser's pre-session cookie, and no field the browser posts back changes it. Each
/// attack of the issue, over real HTTP on SQLite and on two server processes sharing PostgreSQL.
@Suite("Held authorization requests: the form carries a reference, never the request")
struct HeldRequestAttackTests {
    /// The login page's reference and CSRF token, after `/authorize` or a pushed request.
    static func formFields(_ page: TestResponse) throws -> [String: String] {
        let fields = HTMLForm(html: page.text).fields
        #expect(fields[PendingAuthorizations.referenceField]?.utf8.count == 43, "\(page.status) \(fields.keys.sorted())")
        #expect(fields["csrf_token"] != nil)
        for name in ["client_id", "redirect_uri", "scope", "state", "code_challenge", "nonce", "dpop_jkt"] {
            #expect(fields[name] == nil, "\(name) is not in the form")
        }
        return fields
    }

    /// What the attacker posts to `/login` besides the reference: another client's request.
    static func forgedFields(clientID: String, redirectURI: String, scope: String) -> [String: String] {
        [
            "client_id": clientID, "redirect_uri": redirectURI, "response_type": "code", "scope": scope,
            "state": "forged", "code_challenge": PKCE().challenge, "code_challenge_method": "S256", "nonce": "forged",
            "username": Fixtures.username, "password": Fixtures.password,
        ]
    }

    @Test("PAR required, bypassed: a form edited to name another client still signs in the held request's", arguments: StoreBackend.available)
    func requiredPushCannotBeBypassed(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let bank = try await FAPI2ProfileTests.register(server)
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let pushed = try await PushedAuthorizationTests.push(flow, attempt)
            let requestURI = try pushed.json(PushedAuthorizationResponse.self).requestURI
            let page = try await flow.browser.get("/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": requestURI])
            try #require(page.status == 200, "\(page.text)")
            var fields = try Self.formFields(page)
            fields.merge(
                Self.forgedFields(clientID: FAPI2ProfileTests.BankClient.id, redirectURI: FAPI2ProfileTests.BankClient.redirect,
                                  scope: "openid profile offline_access")) { $1 }
            let redirect = try await flow.browser.postForm("/login", fields)
            try #require(redirect.status == 303, "\(redirect.text)")
            let location = try #require(redirect.location)
            #expect(location.hasPrefix(Fixtures.nativeRedirect), "the code goes to the held request's client: \(location)")
            #expect(!location.hasPrefix(FAPI2ProfileTests.BankClient.redirect))
            #expect(redirect.locationQuery["state"] == attempt.state, "the pushed state, not the forged one")
            let code = try #require(redirect.locationQuery["code"])

            // The bank client cannot redeem it, however it authenticates.
            let tokenURL = server.issuer + "/token"
            let asBank = try await server.client().postForm(
                "/token", FAPI2ProfileTests.tokenForm(code, attempt).merging(try await bank.authentication(server)) { $1 },
                headers: ["DPoP": bank.dpop.proof("POST", tokenURL, issuedAt: server.clock.now())])
            #expect(asBank.status == 400 && asBank.jsonObject["error"] as? String == "invalid_grant", "\(asBank.text)")
        }
    }

    @Test("on a server that requires PAR, a form naming a client that never pushed gets nothing of its own")
    func requirePARServer() async throws {
        try await withTestServer(configure: { $0.requirePushedRequests = true }) { server in
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let direct = try await flow.authorize(attempt)
            #expect(direct.status == 303 && direct.locationQuery["error"] == "invalid_request", "no push, no form")
            let pushed = try await PushedAuthorizationTests.push(flow, attempt)
            let requestURI = try pushed.json(PushedAuthorizationResponse.self).requestURI
            let page = try await flow.browser.get("/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": requestURI])
            var fields = try Self.formFields(page)
            fields.merge(Self.forgedFields(clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect, scope: "openid")) { $1 }
            let redirect = try await flow.browser.postForm("/login", fields)
            #expect(redirect.status == 303)
            #expect(redirect.location?.hasPrefix(Fixtures.nativeRedirect) == true, "\(redirect.location ?? redirect.text)")
            #expect(redirect.locationQuery["state"] == attempt.state)
        }
    }

    @Test("pushed parameters edited: dropping dpop_jkt and widening the scope at the form changes nothing", arguments: StoreBackend.available)
    func pushedParametersCannotBeEdited(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            var flow = OAuthFlow(browser: server.client())
            flow.scope = "openid"
            let attempt = OAuthFlow.Attempt()
            let dpop = DPoPProofMaker()
            let pushed = try await PushedAuthorizationTests.push(
                flow, attempt, headers: ["DPoP": dpop.proof("POST", server.issuer + "/par", issuedAt: server.clock.now())])
            try #require(pushed.status == 201, "\(pushed.text)")
            let requestURI = try pushed.json(PushedAuthorizationResponse.self).requestURI
            let page = try await flow.browser.get("/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": requestURI])
            var fields = try Self.formFields(page)
            fields["scope"] = "openid profile email offline_access"
            fields["dpop_jkt"] = ""
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password
            let redirect = try await flow.browser.postForm("/login", fields)
            let code = try #require(redirect.locationQuery["code"], "\(redirect.status) \(redirect.text)")

            let bearer = try await flow.exchange(code, attempt: attempt)
            #expect(bearer.jsonObject["error"] as? String == "invalid_dpop_proof", "the code stays bound: \(bearer.text)")
            // The code was not spent by the refused attempt? It was: a new sign-in gives a new one.
            let second = OAuthFlow.Attempt()
            let again = try await PushedAuthorizationTests.push(
                flow, second, headers: ["DPoP": dpop.proof("POST", server.issuer + "/par", issuedAt: server.clock.now())])
            let secondURI = try again.json(PushedAuthorizationResponse.self).requestURI
            let secondPage = try await flow.browser.get("/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": secondURI])
            let secondCode: String
            if secondPage.status == 303 {
                secondCode = try #require(secondPage.locationQuery["code"])  // the browser session signs in at once
            } else {
                var edited = try Self.formFields(secondPage)
                edited["scope"] = "openid profile email offline_access"
                edited["username"] = Fixtures.username
                edited["password"] = Fixtures.password
                secondCode = try #require(try await flow.browser.postForm("/login", edited).locationQuery["code"])
            }
            let tokens = try await flow.browser.postForm(
                "/token",
                [
                    "grant_type": "authorization_code", "code": secondCode, "redirect_uri": flow.redirectURI,
                    "client_id": flow.clientID, "code_verifier": second.pkce.verifier,
                ],
                headers: ["DPoP": dpop.proof("POST", server.issuer + "/token", issuedAt: server.clock.now())])
            #expect(tokens.status == 200, "\(tokens.text)")
            #expect(tokens.jsonObject["token_type"] as? String == "DPoP")
            #expect(tokens.jsonObject["scope"] as? String == "openid", "the pushed scope, not the widened one")
        }
    }

    @Test("a reference is refused in another browser, after it was completed, and once it expired")
    func referenceBindingAndLifetime() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            let page = try await flow.authorize(OAuthFlow.Attempt())
            var fields = try Self.formFields(page)
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password

            // Another browser, with a CSRF token of its own, posts this browser's reference.
            let other = server.client()
            let otherPage = try await OAuthFlow(browser: other).authorize(OAuthFlow.Attempt())
            var stolen = fields
            stolen["csrf_token"] = HTMLForm(html: otherPage.text).fields["csrf_token"]
            let refused = try await other.postForm("/login", stolen)
            #expect(refused.status == 400, "\(refused.status)")
            #expect(refused.text.contains(server.localizedSignInExpired), "the page says the sign-in expired")

            // A reference that was never issued, or is malformed.
            for bogus in ["", "x", String(repeating: "A", count: 43), String(repeating: "é", count: 43), String(repeating: "A", count: 5000)] {
                var forged = fields
                forged[PendingAuthorizations.referenceField] = bogus
                #expect(try await flow.browser.postForm("/login", forged).status == 400, "\(bogus.prefix(10))")
            }
            var missing = fields
            missing[PendingAuthorizations.referenceField] = nil
            #expect(try await flow.browser.postForm("/login", missing).status == 400)

            // The owner signs in once; the same form again is refused.
            let first = try await flow.browser.postForm("/login", fields)
            #expect(first.status == 303 && first.locationQuery["code"] != nil)
            let replay = try await flow.browser.postForm("/login", fields)
            #expect(replay.status == 400, "a completed request is not completed twice")
            #expect(replay.location == nil)

            // A request held longer than the sign-in timeout is gone.
            flow.browser.setCookie("sesame_session", nil)
            let late = try await flow.authorize(OAuthFlow.Attempt())
            var lateFields = try Self.formFields(late)
            lateFields["username"] = Fixtures.username
            lateFields["password"] = Fixtures.password
            server.clock.advance(by: PendingAuthorizations.defaultLifetime + 1)
            let expired = try await flow.browser.postForm("/login", lateFields)
            #expect(expired.status == 400)
            // "Back to sign in" of an expired request says so too.
            let back = try await flow.browser.get(
                "/login", query: [PendingAuthorizations.referenceField: lateFields[PendingAuthorizations.referenceField]!])
            #expect(back.status == 400)
        }
    }

    @Test("GET /login shows the held request's form again; the sign-up and reset links carry only its reference")
    func backToSignIn() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let page = try await flow.authorize(attempt, extra: ["login_hint": "alice"])
            let reference = try #require(try Self.formFields(page)[PendingAuthorizations.referenceField])
            for link in ["/signup?authorization_ref=", "/password-reset?authorization_ref="] {
                #expect(page.text.contains(link + reference), "\(link)")
            }
            #expect(!page.text.contains(attempt.state), "the state is nowhere in the page")
            #expect(!page.text.contains(attempt.pkce.challenge), "nor the code challenge")
            let again = try await flow.browser.get("/login", query: [PendingAuthorizations.referenceField: reference])
            #expect(again.status == 200)
            #expect(HTMLForm(html: again.text).fields[PendingAuthorizations.referenceField] == reference)
            #expect(HTMLForm(html: again.text).fields["username"] == "alice", "login_hint kept on the server")
            let signUp = try await flow.browser.get("/signup", query: [PendingAuthorizations.referenceField: reference])
            #expect(signUp.text.contains("/login?authorization_ref=" + reference), "Back to sign in")
            let redirect = try await flow.submitLogin(page: again)
            #expect(redirect.locationQuery["state"] == attempt.state)
        }
    }

    @Test(
        "20 posts of one login form at once on two server processes sharing PostgreSQL: one code; and the attacks there",
        .needsPostgreSQL)
    func concurrentCompletion() async throws {
        try await withTwoServers { first, second in
            let browser = first.client()
            let flow = OAuthFlow(browser: browser)
            let attempt = OAuthFlow.Attempt()
            let page = try await flow.authorize(attempt)
            var fields = try Self.formFields(page)
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password
            // The same browser (its cookies) on both processes.
            let onSecond = second.portClient()
            onSecond.setCookie("sesame_csrf", browser.cookie("sesame_csrf"))
            let results = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for index in 0..<20 {
                    let client = index % 2 == 0 ? browser : onSecond
                    let form = fields
                    group.addTask { try await client.postForm("/login", form) }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let codes = results.filter { $0.status == 303 }.compactMap { $0.locationQuery["code"] }
            #expect(codes.count == 1, "\(results.map(\.status))")
            #expect(results.filter { $0.status == 400 }.count >= 1, "some reached completion and lost: \(results.map(\.status))")
            #expect(results.allSatisfy { [303, 400, 429].contains($0.status) }, "\(results.map(\.status))")

            // The forged form on the other process: the held request is what is signed in.
            let held = try await flow.authorize(OAuthFlow.Attempt())
            browser.setCookie("sesame_session", nil)
            onSecond.setCookie("sesame_session", nil)
            let attempt2 = OAuthFlow.Attempt()
            let page2 = try await flow.authorize(attempt2)
            _ = held
            var forged = try Self.formFields(page2)
            forged.merge(Self.forgedFields(clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect, scope: "openid")) { $1 }
            onSecond.setCookie("sesame_csrf", browser.cookie("sesame_csrf"))
            let redirect = try await onSecond.postForm("/login", forged)
            #expect(redirect.location?.hasPrefix(Fixtures.nativeRedirect) == true, "\(redirect.status) \(redirect.location ?? "")")
            #expect(redirect.locationQuery["state"] == attempt2.state)
        }
    }
}

extension TestServer {
    /// The English text of the sign-in-expired page.
    var localizedSignInExpired: String {
        StringTableLocalizer().string(APIErrorCode.signInExpired.messageKey, locales: ["en"])
    }
}
