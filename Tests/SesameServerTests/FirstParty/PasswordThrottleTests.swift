import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// Password guessing is throttled (``LoginThrottle``) wherever a password is checked, against the
/// real server over HTTP: `/authorize-challenge`, the hosted login page, and the account APIs
/// that ask for the current password. Default policy: 5 failures lock a login name for 30 s
/// (doubling), 50 failures from one address lock it for 15 minutes.
@Suite("Password throttling at the endpoints")
struct PasswordThrottleTests {
    static let wrong = "not the password"

    /// Five wrong passwords for `username` at `/authorize-challenge`, each an ordinary 2000.
    func failFiveTimes(_ flow: ChallengeFlow, username: String = Fixtures.username) async throws {
        for attempt in 1...5 {
            let response = try await flow.start(username: username, password: Self.wrong)
            #expect(response.status == 400, "attempt \(attempt): \(response.text)")
            #expect(try ChallengeFlow.error(response).code == .invalidCredentials, "attempt \(attempt)")
        }
    }

    /// The 429 answer of a throttled attempt; checks its shape and returns the error.
    @discardableResult
    func expectThrottled(
        _ response: TestResponse, retryAfter: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> APIError {
        #expect(response.status == 429, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.header("Retry-After") == String(retryAfter), sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        let error = try ChallengeFlow.error(response)
        #expect(error.code == .tooManyAttempts, sourceLocation: sourceLocation)
        #expect(error.errorCode == 2009, sourceLocation: sourceLocation)
        #expect(error.error == "temporarily_unavailable", sourceLocation: sourceLocation)
        #expect(error.retryAfter == retryAfter, sourceLocation: sourceLocation)
        #expect(error.errorMessageKey == "error.too_many_attempts", sourceLocation: sourceLocation)
        #expect(
            error.errorDescription?.contains("Try again in \(retryAfter) seconds") == true,
            "\(error.errorDescription ?? "")", sourceLocation: sourceLocation)
        #expect(error.authSession == nil, sourceLocation: sourceLocation)
        return error
    }

    @Test("authorize-challenge: after 5 wrong passwords the 6th, even the right one, is 429 without hashing")
    func challengeLocksTheName() async throws {
        let hasher = CountingPasswordHasher()
        try await withTestServer(passwordHasher: hasher) { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            try await failFiveTimes(flow)
            let verified = hasher.verifications

            let refused = try await flow.start()
            let error = try expectThrottled(refused, retryAfter: 30)
            #expect(error.errorUserMessage == StringTables.english["error.too_many_attempts"])
            #expect(hasher.verifications == verified, "a refused attempt never reaches the password hash")
            let again = try await flow.start(password: Self.wrong)
            try expectThrottled(again, retryAfter: 30)
            #expect(hasher.verifications == verified)

            // Other names are not affected.
            _ = try await server.addMFATestUser("bob")
            #expect(try await flow.start(username: "bob").status == 200)

            // Past the delay the right password works and resets the counter.
            server.clock.advance(by: 30)
            #expect(try await flow.start().status == 200)
            for _ in 1...4 { #expect(try await flow.start(password: Self.wrong).status == 400) }
            #expect(try await flow.start().status == 200, "the success reset the count: 4 failures do not lock")
        }
    }

    @Test(
        "a locked account stays locked whatever form of its name is typed: email, upper case, at the login page too")
    func lockoutFollowsTheAccount() async throws {
        try await withTestServer { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            try await failFiveTimes(flow)
            for alias in [Fixtures.email, Fixtures.email.uppercased(), " \(Fixtures.username.uppercased()) "] {
                try expectThrottled(try await flow.start(username: alias), retryAfter: 30)
            }
            // The hosted login page shares the count.
            let login = OAuthFlow(browser: server.client())
            let page = try await login.authorize(.init())
            let refused = try await login.submitLogin(page: page, username: Fixtures.email.uppercased(), password: Fixtures.password)
            #expect(refused.status == 429)
            #expect(refused.location == nil)

            // Failures spread over the aliases count together.
            server.clock.advance(by: 30)
            #expect(try await flow.start().status == 200)
            for name in [Fixtures.username, Fixtures.email, Fixtures.email.uppercased(), Fixtures.username, Fixtures.email] {
                #expect(try await flow.start(username: name, password: Self.wrong).status == 400)
            }
            try expectThrottled(try await flow.start(), retryAfter: 30)

            // An unknown name is throttled by the name typed, exactly like a real one.
            try await failFiveTimes(flow, username: "nobody-here")
            try expectThrottled(try await flow.start(username: "nobody-here"), retryAfter: 30)
        }
    }

    @Test("the delay doubles with each failure after the lockout: 30 s, 60 s, 120 s")
    func exponentialBackoff() async throws {
        try await withTestServer { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            try await failFiveTimes(flow)
            try expectThrottled(try await flow.start(), retryAfter: 30)
            server.clock.advance(by: 30)
            #expect(try await flow.start(password: Self.wrong).status == 400)
            try expectThrottled(try await flow.start(), retryAfter: 60)
            server.clock.advance(by: 60)
            #expect(try await flow.start(password: Self.wrong).status == 400)
            try expectThrottled(try await flow.start(), retryAfter: 120)
            server.clock.advance(by: 120)
            #expect(try await flow.start().status == 200)
        }
    }

    @Test("an unknown username is throttled exactly like a real one: no account enumeration")
    func unknownUserIsThrottledTheSame() async throws {
        let hasher = CountingPasswordHasher()
        try await withTestServer(passwordHasher: hasher) { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            try await failFiveTimes(flow, username: "nobody")
            try await failFiveTimes(flow)
            let verified = hasher.verifications
            let unknown = try expectThrottled(try await flow.start(username: "nobody"), retryAfter: 30)
            let known = try expectThrottled(try await flow.start(), retryAfter: 30)
            #expect(hasher.verifications == verified)
            #expect(unknown.errorDescription == known.errorDescription)
            #expect(unknown.errorUserMessage == known.errorUserMessage)
            #expect(unknown.retryAfter == known.retryAfter)
        }
    }

    @Test("the name is normalized: case and surrounding spaces share one counter")
    func normalizedName() async throws {
        try await withTestServer { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            for name in ["ALICE", "Alice", " alice", "alice ", "aLiCe"] {
                #expect(try await flow.start(username: name, password: Self.wrong).status == 400)
            }
            try expectThrottled(try await flow.start(), retryAfter: 30)
        }
    }

    @Test("per address: 50 failures across names lock every name from that address for 15 minutes")
    func addressLimitAcrossNames() async throws {
        let hasher = CountingPasswordHasher()
        try await withTestServer(passwordHasher: hasher) { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            // Ten names, five failures each: no single name is over its limit when it starts.
            for name in 0..<10 {
                try await failFiveTimes(flow, username: "guess-\(name)")
            }
            let verified = hasher.verifications
            try expectThrottled(try await flow.start(username: "guess-10", password: Self.wrong), retryAfter: 900)
            try expectThrottled(try await flow.start(), retryAfter: 900)
            #expect(hasher.verifications == verified)

            server.clock.advance(by: 15 * 60)
            #expect(try await flow.start().status == 200, "the address lock ended")
        }
    }

    @Test("ui_locales localizes error_user_msg of the 429")
    func localizedMessage() async throws {
        try await withTestServer { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            try await failFiveTimes(flow)
            let error = try expectThrottled(
                try await flow.start(extra: ["ui_locales": "de"], headers: ["Accept-Language": "fr"]), retryAfter: 30)
            let german = try #require(StringTables.all["de"]?["error.too_many_attempts"])
            #expect(error.errorUserMessage == german)
            #expect(german != StringTables.english["error.too_many_attempts"])
        }
    }

    @Test("re-authentication (max_age=0) is throttled under the same name")
    func reauthentication() async throws {
        try await withTestServer { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            try await failFiveTimes(flow)
            try expectThrottled(try await flow.start(extra: ["max_age": "0"]), retryAfter: 30)
        }
    }

    @Test("hosted login page: the 6th attempt shows the localized message in the form with 429")
    func hostedLoginPage() async throws {
        let hasher = CountingPasswordHasher()
        try await withTestServer(passwordHasher: hasher) { server in
            server.clock.freeze()
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            var page = try await flow.authorize(.init(), extra: ["ui_locales": "fr"])
            for attempt in 1...5 {
                page = try await flow.submitLogin(page: page, password: Self.wrong)
                #expect(page.status == 401, "attempt \(attempt)")
            }
            let verified = hasher.verifications
            let refused = try await flow.submitLogin(page: page)
            #expect(hasher.verifications == verified)
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "30")
            #expect(refused.location == nil)
            #expect(browser.cookie("sesame_session") == nil)
            let french = try #require(StringTables.all["fr"]?["error.too_many_attempts"])
            #expect(refused.text.contains(french.htmlEscaped), "\(refused.text)")
            #expect(refused.text.contains(#"<html lang="fr""#))
            #expect(HTMLForm(html: refused.text).fields["username"] == Fixtures.username)
            #expect(!refused.text.contains(try #require(StringTables.all["fr"]?["login.failed"]).htmlEscaped))

            // The form still works once the delay has passed.
            server.clock.advance(by: 30)
            let signedIn = try await flow.submitLogin(page: refused)
            #expect(signedIn.status == 303, "\(signedIn.status) \(signedIn.text)")
            #expect(signedIn.locationQuery["code"] != nil)
        }
    }

    @Test("the login page and authorize-challenge share the name's counter")
    func sharedAcrossEndpoints() async throws {
        try await withTestServer { server in
            server.clock.freeze()
            let flow = OAuthFlow(browser: server.client())
            var page = try await flow.authorize(.init())
            for _ in 1...3 { page = try await flow.submitLogin(page: page, password: Self.wrong) }
            let challenge = ChallengeFlow(server)
            for _ in 1...2 { #expect(try await challenge.start(password: Self.wrong).status == 400) }
            try expectThrottled(try await challenge.start(), retryAfter: 30)
            #expect(try await flow.submitLogin(page: page).status == 429)
        }
    }

    @Test("password change and account deletion: wrong current passwords are throttled with the sign-in limit")
    func accountEndpoints() async throws {
        let hasher = CountingPasswordHasher()
        try await withTestServer(passwordHasher: hasher) { server in
            server.clock.freeze()
            let api = AccountAPI(server)
            let tokens = try await api.signInAlice()
            for attempt in 1...3 {
                let wrong = try await api.post(
                    "/api/password", ["current_password": Self.wrong, "new_password": "a fine new password"],
                    token: tokens.accessToken)
                #expect(wrong.status == 400, "attempt \(attempt)")
                #expect(wrong.apiError?.code == .invalidCredentials)
            }
            for _ in 1...2 {
                let wrong = try await api.call(
                    "DELETE", "/api/account", ["password": Self.wrong], token: tokens.accessToken)
                #expect(wrong.apiError?.code == .invalidCredentials)
            }
            let verified = hasher.verifications
            let change = try await api.post(
                "/api/password", ["current_password": Fixtures.password, "new_password": "a fine new password"],
                token: tokens.accessToken)
            try expectThrottled(change, retryAfter: 30)
            let deletion = try await api.call(
                "DELETE", "/api/account", ["password": Fixtures.password], token: tokens.accessToken)
            try expectThrottled(deletion, retryAfter: 30)
            // The guesses count against the username's sign-in too.
            try expectThrottled(try await ChallengeFlow(server).start(), retryAfter: 30)
            #expect(hasher.verifications == verified)
            #expect(try await server.store.user(login: Fixtures.username) != nil, "nothing was deleted")

            server.clock.advance(by: 30)
            let changed = try await api.post(
                "/api/password", ["current_password": Fixtures.password, "new_password": "a fine new password"],
                token: tokens.accessToken)
            #expect(changed.status == 200, "\(changed.text)")
        }
    }

    @Test("the OpenAPI document lists 429 for every operation that takes a password")
    func openAPI() async throws {
        try await withTestServer { server in
            server.clock.freeze()
            let response = try await server.client().get("/api/openapi.json")
            let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let operations = [("/authorize-challenge", "post"), ("/api/password", "post"), ("/api/account", "delete")]
            for (path, method) in operations {
                let operation = try #require(paths[path]?[method] as? [String: Any], "\(method) \(path)")
                let responses = try #require(operation["responses"] as? [String: Any])
                let throttled = try #require(responses["429"] as? [String: Any], "\(method) \(path) lacks 429")
                #expect((throttled["description"] as? String)?.contains("2009") == true)
            }
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let apiError = try #require(schemas["APIError"] as? [String: Any])
            #expect((apiError["properties"] as? [String: Any])?["retry_after"] != nil)
        }
    }
}
