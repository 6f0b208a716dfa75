import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// PKCE is optional for confidential clients (RFC 9700 §2.1.1: they may rely on `nonce`), as
/// the OpenID certification suite expects, but never weaker: a code issued with a challenge
/// needs its verifier, a code issued without one refuses a verifier (PKCE downgrade,
/// RFC 9700 §4.8.2), and whoever sends a challenge sends an S256 one.
@Suite("Authorization code flow: PKCE for confidential clients")
struct ConfidentialClientPKCETests {
    /// The confidential `backend` client's browser flow.
    static func backendFlow(_ server: TestServer, sendsPKCE: Bool) -> OAuthFlow {
        var flow = OAuthFlow(
            browser: server.client(), clientID: Fixtures.backend, redirectURI: Fixtures.backendRedirect,
            scope: "openid profile")
        flow.sendsPKCE = sendsPKCE
        return flow
    }

    /// A token request of `backend`, authenticated with HTTP Basic; `verifier` only when given.
    static func exchange(_ code: String, verifier: String?, browser: HTTPTestClient) async throws -> TestResponse {
        var form = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": Fixtures.backendRedirect,
        ]
        form["code_verifier"] = verifier
        return try await browser.postForm(
            "/token", form, headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
    }

    @Test("confidential client without PKCE: login form round trip, tokens, nonce echoed in the ID token")
    func withoutPKCE() async throws {
        try await withTestServer { server in
            let flow = Self.backendFlow(server, sendsPKCE: false)
            let attempt = OAuthFlow.Attempt()
            let page = try await flow.authorize(attempt)
            #expect(page.status == 200, "\(page.location ?? page.text)")
            let fields = HTMLForm(html: page.text).fields
            #expect(fields["authorization_ref"] != nil, "the request is held on the server (issue #44)")
            #expect(fields["client_id"] == nil && fields["nonce"] == nil && fields["code_challenge"] == nil)

            let redirect = try await flow.submitLogin(page: page)
            #expect(redirect.status == 303, "\(redirect.text)")
            #expect(redirect.location?.hasPrefix(Fixtures.backendRedirect + "?") == true)
            #expect(redirect.locationQuery["state"] == attempt.state)
            #expect(redirect.locationQuery["iss"] == server.issuer)
            let code = try #require(redirect.locationQuery["code"])

            let response = try await Self.exchange(code, verifier: nil, browser: flow.browser)
            #expect(response.status == 200, "\(response.text)")
            let tokens = try response.json(TokenResponse.self)
            let claims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            #expect(claims.nonce == attempt.nonce)
            #expect(claims.aud == Fixtures.backend)
            #expect(claims.atHash == TokenIssuer.atHash(tokens.accessToken))
            #expect(try await flow.browser.userInfo(tokens.accessToken).status == 200)

            // Single use still holds: a second redemption fails.
            let replay = try await Self.exchange(code, verifier: nil, browser: flow.browser)
            #expect(replay.status == 400)
            #expect(try replay.json(APIError.self).error == "invalid_grant")
        }
    }

    @Test("code without a challenge plus code_verifier at /token is a PKCE downgrade: invalid_grant")
    func downgradeRefused() async throws {
        try await withTestServer { server in
            let flow = Self.backendFlow(server, sendsPKCE: false)
            let attempt = OAuthFlow.Attempt()
            let code = try await flow.signIn(attempt)
            let response = try await Self.exchange(code, verifier: attempt.pkce.verifier, browser: flow.browser)
            #expect(response.status == 400)
            let error = try response.json(APIError.self)
            #expect(error.error == "invalid_grant")
            #expect(error.errorCode == APIErrorCode.invalidGrant.rawValue)
            #expect(error.errorDescription?.contains("PKCE downgrade") == true)
            #expect(ErrorDescriptionText.isValid(try #require(error.errorDescription)))
        }
    }

    @Test("confidential client that sent a challenge must send the right code_verifier")
    func withPKCE() async throws {
        try await withTestServer { server in
            let flow = Self.backendFlow(server, sendsPKCE: true)

            let missing = OAuthFlow.Attempt()
            let code1 = try await flow.signIn(missing)
            let response1 = try await Self.exchange(code1, verifier: nil, browser: flow.browser)
            #expect(response1.status == 400)
            #expect(try response1.json(APIError.self).error == "invalid_grant")

            let wrong = OAuthFlow.Attempt()
            let code2 = try await flow.signIn(wrong)
            let response2 = try await Self.exchange(code2, verifier: PKCE().verifier, browser: flow.browser)
            #expect(response2.status == 400)
            #expect(try response2.json(APIError.self).error == "invalid_grant")

            let right = OAuthFlow.Attempt()
            let code3 = try await flow.signIn(right)
            let response3 = try await Self.exchange(code3, verifier: right.pkce.verifier, browser: flow.browser)
            #expect(response3.status == 200, "\(response3.text)")
            let tokens = try response3.json(TokenResponse.self)
            let claims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            #expect(claims.nonce == right.nonce)
        }
    }

    @Test("confidential clients too: plain, absent method, unknown method, malformed challenge are refused")
    func badPKCERefused() async throws {
        try await withTestServer { server in
            let flow = Self.backendFlow(server, sendsPKCE: true)
            let attempt = OAuthFlow.Attempt()
            let cases: [([String: String], String)] = [
                (["code_challenge": attempt.pkce.verifier, "code_challenge_method": "plain"], "code_challenge_method must be S256."),
                (["code_challenge_method": "S512"], "code_challenge_method must be S256."),
                (["code_challenge": "short"], "code_challenge must be the base64url SHA-256 of the verifier."),
            ]
            for (extra, description) in cases {
                let response = try await flow.authorize(attempt, extra: extra)
                #expect(response.status == 303)
                #expect(response.locationQuery["error"] == "invalid_request")
                #expect(response.locationQuery["error_description"] == description)
                #expect(response.locationQuery["state"] == attempt.state)
                #expect(response.locationQuery["iss"] == server.issuer)
            }
            var absentMethod = flow.parameters(attempt)
            absentMethod["code_challenge_method"] = nil
            let implicitPlain = try await flow.browser.get("/authorize", query: absentMethod)
            #expect(implicitPlain.locationQuery["error"] == "invalid_request")
            #expect(implicitPlain.locationQuery["error_description"] == "code_challenge_method must be S256.")

            let noChallenge = Self.backendFlow(server, sendsPKCE: false)
            let methodOnly = try await noChallenge.authorize(attempt, extra: ["code_challenge_method": "S256"])
            #expect(methodOnly.locationQuery["error"] == "invalid_request")
            #expect(methodOnly.locationQuery["code"] == nil)
        }
    }

    @Test("the hosted MFA step carries a missing challenge through and issues a code without PKCE")
    func hostedMFAWithoutPKCE() async throws {
        try await withTestServer { server in
            try await enrollmentClient(server).enableEmail()
            let flow = Self.backendFlow(server, sendsPKCE: false)
            let attempt = OAuthFlow.Attempt()
            let mfaPage = try await flow.submitLogin(page: try await flow.authorize(attempt))
            #expect(mfaPage.status == 200)
            let fields = HTMLForm(html: mfaPage.text).fields
            #expect(fields["auth_session"]?.isEmpty == false)
            #expect(fields["code_challenge"] == nil)

            // A challenge added to the form changes nothing: the request is the one held on the
            // server (issue #44), so the code is still issued without PKCE.
            var tampered = fields
            tampered["code_challenge"] = PKCE().challenge
            tampered["code_challenge_method"] = "S256"
            tampered["mfa_code"] = try await server.lastMFACode(to: Fixtures.email)
            let redirect = try await flow.browser.postForm("/login", tampered)
            #expect(redirect.status == 303, "\(redirect.text)")
            let authorizationCode = try #require(redirect.locationQuery["code"])
            let response = try await Self.exchange(authorizationCode, verifier: nil, browser: flow.browser)
            #expect(response.status == 200, "\(response.text)")
            let tokens = try response.json(TokenResponse.self)
            let claims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            #expect(claims.acr == AuthenticationContextClass.multiFactor)
            #expect(claims.nonce == attempt.nonce)
        }
    }

    @Test("/authorize-challenge requires PKCE even from a confidential first-party client")
    func authorizeChallengeStillRequiresPKCE() async throws {
        try await withTestServer { server in
            let secret = "first-party-secret-" + String(repeating: "y", count: 32)
            try await server.store.upsertClient(
                ClientRecord(
                    clientID: "confidential-first-party", name: "Confidential First Party",
                    secretHash: try TestServer.hasher.hash(secret), redirectURIs: ["https://fp.example.com/cb"],
                    tokenEndpointAuthMethod: .clientSecretBasic, firstParty: true))
            var flow = ChallengeFlow(server, clientID: "confidential-first-party")
            flow.scope = "openid"
            var form = flow.startParameters()
            form["code_challenge"] = nil
            form["code_challenge_method"] = nil
            form["client_id"] = nil
            let response = try await flow.http.postForm(
                "/authorize-challenge", form, headers: HTTPTestClient.basic("confidential-first-party", secret))
            #expect(response.status == 400)
            let error = try ChallengeFlow.error(response)
            #expect(error.errorCode == APIErrorCode.pkceRequired.rawValue)
            #expect(error.errorDescription == "code_challenge is required (PKCE S256).")

            // With PKCE the same client signs in (the credentials are right).
            var withPKCE = flow.startParameters()
            withPKCE["client_id"] = nil
            let signedIn = try await flow.http.postForm(
                "/authorize-challenge", withPKCE, headers: HTTPTestClient.basic("confidential-first-party", secret))
            #expect(signedIn.status == 200, "\(signedIn.text)")
        }
    }
}
