import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// OIDC Core §3.1.2.1 `acr_values` is a voluntary list in order of preference (§15.1: its use
/// must not result in an error). Only `urn:sesame:acr:mfa` alone makes a second factor a
/// requirement; with both advertised values the client's MFA policy decides, and `acr` says
/// what actually happened.
@Suite("acr_values: a voluntary preference list")
struct ACRValuesTests {
    static let both = "\(AuthenticationContextClass.password) \(AuthenticationContextClass.multiFactor)"
    static let mfaOnly = AuthenticationContextClass.multiFactor

    /// The `acr` of the ID token in `tokens`.
    static func acr(_ tokens: TokenResponse, server: TestServer) async throws -> String? {
        try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self).acr
    }

    @Test(
        "parsing: only known classes, in order, once; MFA required only when pwd is absent",
        arguments: [
            ("", false, false), ("urn:sesame:acr:mfa", true, true), ("urn:sesame:acr:pwd urn:sesame:acr:mfa", false, true),
            ("urn:sesame:acr:mfa urn:sesame:acr:pwd", false, true), ("urn:example:loa:3 urn:sesame:acr:mfa", true, true),
            ("urn:example:loa:3", false, false), ("urn:sesame:acr:pwd", false, false),
            ("urn:sesame:acr:mfa  urn:sesame:acr:mfa", true, true),
        ])
    func parsing(value: String, required: Bool, mentioned: Bool) {
        let requested = RequestedACR(value)
        #expect(requested.requiresMultiFactor == required)
        #expect(requested.mentionsMultiFactor == mentioned)
        #expect(Set(requested.classes).isSubset(of: Set(AuthenticationContextClass.all)))
        #expect(Set(requested.classes).count == requested.classes.count)
        #expect(MFARequirement.asksForMFA(value) == required)
    }

    // MARK: Hosted login (/authorize + /login)

    @Test("/authorize with both values: a user without a second factor signs in with the password, acr pwd")
    func hostedBothWithoutFactor() async throws {
        try await withTestServer { server in
            _ = try await server.addMFATestUser("dave", emailVerified: false)
            for username in [Fixtures.username, "dave"] {
                let browser = server.client()
                let flow = OAuthFlow(browser: browser)
                let attempt = OAuthFlow.Attempt()
                let page = try await flow.authorize(attempt, extra: ["acr_values": Self.both])
                #expect(page.status == 200)
                let redirect = try await flow.submitLogin(page: page, username: username)
                try #require(redirect.status == 303, "\(username): \(redirect.status) \(redirect.text)")
                let code = try #require(redirect.locationQuery["code"])
                let tokens = try await flow.exchange(code, attempt: attempt).json(TokenResponse.self)
                #expect(try await Self.acr(tokens, server: server) == AuthenticationContextClass.password)
            }
            #expect(try await server.mfaMessageCount(to: Fixtures.email) == 0)
        }
    }

    @Test("/authorize with mfa alone: the second factor is asked as before (email fallback, or 403 without one)")
    func hostedMFAOnly() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            let mfaPage = try await flow.submitLogin(
                page: try await flow.authorize(.init(), extra: ["acr_values": Self.mfaOnly]))
            #expect(mfaPage.status == 200)
            #expect(HTMLForm(html: mfaPage.text).fields.keys.contains("mfa_code"))
            #expect(try await server.mfaMessageCount(to: Fixtures.email) == 1)

            _ = try await server.addMFATestUser("dave", emailVerified: false)
            let dave = OAuthFlow(browser: server.client())
            let refused = try await dave.submitLogin(
                page: try await dave.authorize(.init(), extra: ["acr_values": Self.mfaOnly]), username: "dave")
            #expect(refused.status == 403)
            #expect(refused.location == nil)
        }
    }

    @Test("/authorize with both values: the client's policy decides (when_enrolled asks an enrolled user; never does not)")
    func hostedBothFollowsPolicy() async throws {
        try await withTestServer { server in
            try await enrollmentClient(server).enableEmail()
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let mfaPage = try await flow.submitLogin(
                page: try await flow.authorize(attempt, extra: ["acr_values": Self.both]))
            #expect(mfaPage.status == 200)
            let redirect = try await HostedLoginMFATests.submit(
                mfaPage, ["mfa_code": try await server.lastMFACode(to: Fixtures.email)], browser: flow.browser)
            try #require(redirect.status == 303, "\(redirect.text)")
            let tokens = try await flow.exchange(try #require(redirect.locationQuery["code"]), attempt: attempt)
                .json(TokenResponse.self)
            #expect(try await Self.acr(tokens, server: server) == AuthenticationContextClass.multiFactor)

            try await server.store.upsertClient(
                ClientRecord(
                    clientID: "relaxed-web", name: "Relaxed", redirectURIs: ["com.example.relaxed:/cb"], mfaPolicy: .never))
            let relaxed = OAuthFlow(
                browser: server.client(), clientID: "relaxed-web", redirectURI: "com.example.relaxed:/cb")
            let (relaxedTokens, _) = try await relaxed.tokens(extra: ["acr_values": Self.both])
            #expect(try await Self.acr(relaxedTokens, server: server) == AuthenticationContextClass.password)
        }
    }

    @Test("/authorize with unknown values only: ignored, no error, no second factor")
    func hostedUnknownValues() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            let (tokens, _) = try await flow.tokens(extra: ["acr_values": "urn:example:loa:3 urn:example:loa:2"])
            #expect(try await Self.acr(tokens, server: server) == AuthenticationContextClass.password)
        }
    }

    @Test("SSO: a password session satisfies both values (prompt=none gets a code) but not mfa alone")
    func ssoWithBothValues() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            _ = try await flow.tokens()
            let attempt = OAuthFlow.Attempt()
            let silent = try await flow.authorize(attempt, extra: ["prompt": "none", "acr_values": Self.both])
            #expect(silent.status == 303)
            let code = try #require(silent.locationQuery["code"], "\(silent.location ?? "")")
            let tokens = try await flow.exchange(code, attempt: attempt).json(TokenResponse.self)
            #expect(try await Self.acr(tokens, server: server) == AuthenticationContextClass.password)

            let stepUp = try await flow.authorize(.init(), extra: ["prompt": "none", "acr_values": Self.mfaOnly])
            #expect(stepUp.locationQuery["error"] == "login_required")
        }
    }

    // MARK: Native sign-in (/authorize-challenge)

    @Test("/authorize-challenge with both values: code with acr pwd for users without a second factor")
    func challengeBothWithoutFactor() async throws {
        try await withTestServer { server in
            let flow = ChallengeFlow(server)
            let tokens = try await flow.passwordTokens(extra: ["acr_values": Self.both])
            #expect(try await Self.acr(tokens, server: server) == AuthenticationContextClass.password)

            _ = try await server.addMFATestUser("dave", emailVerified: false)
            let dave = ChallengeFlow(server)
            let response = try await dave.start(username: "dave", extra: ["acr_values": Self.both])
            let daveTokens = try await dave.tokens(try ChallengeFlow.code(response))
            #expect(try await Self.acr(daveTokens, server: server) == AuthenticationContextClass.password)
            #expect(try await server.mfaMessageCount(to: Fixtures.email) == 0)
        }
    }

    @Test("/authorize-challenge with mfa alone: continuation as before; 2006 for a user without any method")
    func challengeMFAOnly() async throws {
        try await withTestServer { server in
            let continuation = try await MFASignInTests.continuation(
                ChallengeFlow(server), extra: ["acr_values": Self.mfaOnly])
            #expect(continuation.mfaMethods == ["email"])

            _ = try await server.addMFATestUser("dave", emailVerified: false)
            let refused = try await ChallengeFlow(server).start(username: "dave", extra: ["acr_values": Self.mfaOnly])
            #expect(try ChallengeFlow.error(refused).errorCode == APIErrorCode.mfaMethodUnavailable.rawValue)
        }
    }

    @Test("step-up (bearer token) naming urn:sesame:acr:mfa still asks for the second factor, as before")
    func stepUpUnchanged() async throws {
        try await withTestServer { server in
            let enrolment = try await enrollmentClient(server)
            try await enrolment.enableEmail()
            for acrValues in [Self.mfaOnly, Self.both] {
                let flow = ChallengeFlow(server, clientID: "enrol-app")
                let response = try await flow.http.postForm(
                    "/authorize-challenge",
                    StepUpAndReauthenticationTests.stepUpForm(flow, extra: ["acr_values": acrValues]),
                    headers: enrolment.auth)
                #expect(response.status == 400)
                let continuation = try ChallengeFlow.error(response)
                #expect(continuation.error == "insufficient_authorization", "\(acrValues): \(response.text)")
                #expect(continuation.mfaMethods == ["email"])
            }
        }
    }
}
