import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Authorization challenge endpoint: step-up and re-authentication")
struct StepUpAndReauthenticationTests {
    /// Step-up parameters for `flow` (fresh PKCE of the flow, the step-up acr).
    static func stepUpForm(_ flow: ChallengeFlow, extra: [String: String] = [:]) -> [String: String] {
        [
            "client_id": flow.clientID, "acr_values": AuthenticationContextClass.multiFactor,
            "code_challenge": flow.pkce.challenge, "code_challenge_method": "S256",
        ].merging(extra) { $1 }
    }

    @Test("step-up of a password session: continuation, TOTP, new tokens with acr mfa; old session intact")
    func stepUp() async throws {
        try await withTestServer { server in
            // A password-only session (policy never), then TOTP enrolment with its token.
            let enrolment = try await enrollmentClient(server)
            let before = JWTParts.payload(enrolment.accessToken)
            #expect(before["acr"] as? String == AuthenticationContextClass.password)
            let totp = try await enrolment.enrollTOTP(clock: server.clock)
            server.clock.advance(by: 30)

            var flow = ChallengeFlow(server, clientID: "enrol-app")
            flow.scope = "openid"
            let response = try await flow.http.postForm(
                "/authorize-challenge", Self.stepUpForm(flow), headers: enrolment.auth)
            #expect(response.status == 400)
            let continuation = try ChallengeFlow.error(response)
            #expect(continuation.error == "insufficient_authorization")
            #expect(continuation.mfaMethods == ["totp"])
            let session = try #require(continuation.authSession)
            _ = try await flow.choose(session, .totp)
            let code = try ChallengeFlow.code(try await flow.verify(session, code: totp.code(at: server.clock.now())))
            let tokens = try await flow.tokens(code)

            let after = JWTParts.payload(tokens.accessToken)
            #expect(after["acr"] as? String == AuthenticationContextClass.multiFactor)
            #expect(after["amr"] as? [String] == ["pwd", "otp", "mfa"])
            #expect(after["sub"] as? String == before["sub"] as? String)
            #expect(after["scope"] as? String == "openid")
            let idClaims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            #expect(idClaims.acr == AuthenticationContextClass.multiFactor)
            #expect(try await server.client().userInfo(enrolment.accessToken).status == 200)
        }
    }

    @Test("step-up refusals: no method enrolled (2006), token of another client, no acr, bad token")
    func stepUpRefusals() async throws {
        try await withTestServer { server in
            let enrolment = try await enrollmentClient(server)
            var flow = ChallengeFlow(server, clientID: "enrol-app")
            flow.scope = "openid"

            let noMethod = try ChallengeFlow.error(
                try await flow.http.postForm("/authorize-challenge", Self.stepUpForm(flow), headers: enrolment.auth))
            #expect(noMethod.errorCode == APIErrorCode.mfaMethodUnavailable.rawValue)
            #expect(noMethod.errorDescription?.contains("enrol") == true)
            #expect(noMethod.authSession == nil)

            try await enrolment.enableEmail()
            let otherClient = try ChallengeFlow.error(
                try await flow.http.postForm(
                    "/authorize-challenge", Self.stepUpForm(flow, extra: ["client_id": Fixtures.nativeApp]),
                    headers: enrolment.auth))
            #expect(otherClient.error == "invalid_grant")

            let noACR = try ChallengeFlow.error(
                try await flow.http.postForm(
                    "/authorize-challenge", Self.stepUpForm(flow, extra: ["acr_values": "urn:sesame:acr:pwd"]),
                    headers: enrolment.auth))
            #expect(noACR.error == "invalid_request")

            let badToken = try await flow.http.postForm(
                "/authorize-challenge", Self.stepUpForm(flow), headers: ["Authorization": "Bearer not-a-token"])
            #expect(badToken.status == 401)
            #expect(try ChallengeFlow.error(badToken).error == "invalid_token")
            #expect(badToken.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)

            let ok = try ChallengeFlow.error(
                try await flow.http.postForm("/authorize-challenge", Self.stepUpForm(flow), headers: enrolment.auth))
            #expect(ok.mfaMethods == ["email"])
        }
    }

    @Test("re-authentication (max_age=0): auth_time now, access token ≤ 300 s, no refresh token even with offline_access")
    func reauthentication() async throws {
        try await withTestServer { server in
            let flow = ChallengeFlow(server)
            let first = try await flow.passwordTokens()
            #expect(first.refreshToken != nil)
            server.clock.advance(by: 600)

            let reauth = ChallengeFlow(server)
            let tokens = try await reauth.tokens(try ChallengeFlow.code(try await reauth.start(extra: ["max_age": "0"])))
            #expect(tokens.refreshToken == nil)
            #expect(try #require(tokens.expiresIn) <= 300)
            let access = JWTParts.payload(tokens.accessToken)
            let exp = try #require(access["exp"] as? Int)
            let iat = try #require(access["iat"] as? Int)
            #expect(exp - iat <= 300)
            let idClaims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            // The clock moved 600 s since the first sign-in: auth_time must be the new one (slack for slow CI).
            #expect(abs(Double(idClaims.authTime) - server.clock.now().timeIntervalSince1970) < 60)
            #expect(tokens.scope?.contains("offline_access") == true)

            // Without max_age=0 the same client gets its usual tokens.
            let normal = try await ChallengeFlow(server).passwordTokens()
            #expect(normal.refreshToken != nil)
            #expect(normal.expiresIn == 900)
        }
    }

    @Test("re-authentication with MFA keeps the short lifetime after the second factor")
    func reauthenticationWithMFA() async throws {
        try await withTestServer { server in
            try await enrollmentClient(server).enableEmail()
            let flow = ChallengeFlow(server)
            let response = try await flow.start(extra: ["max_age": "0"])
            let session = try #require(try ChallengeFlow.error(response).authSession)
            _ = try await flow.choose(session, .email)
            let code = try await server.lastMFACode(to: Fixtures.email)
            let tokens = try await flow.tokens(try ChallengeFlow.code(try await flow.verify(session, code: code)))
            #expect(tokens.refreshToken == nil)
            #expect(try #require(tokens.expiresIn) <= 300)
            #expect(JWTParts.payload(tokens.accessToken)["acr"] as? String == AuthenticationContextClass.multiFactor)
        }
    }
}
