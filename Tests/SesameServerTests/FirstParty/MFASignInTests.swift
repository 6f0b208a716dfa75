import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Authorization challenge endpoint: MFA")
struct MFASignInTests {
    /// Starts a password sign-in that must answer with an MFA continuation.
    static func continuation(_ flow: ChallengeFlow, extra: [String: String] = [:]) async throws -> APIError {
        let response = try await flow.start(extra: extra)
        try #require(response.status == 400, "expected a continuation: \(response.text)")
        let error = try ChallengeFlow.error(response)
        try #require(error.error == "insufficient_authorization", "\(response.text)")
        #expect(error.errorCode == 2002)
        #expect(Base64URL.decode(try #require(error.authSession))?.count == 32)
        return error
    }

    /// Checks the tokens of a completed MFA sign-in.
    static func expectMFATokens(_ tokens: TokenResponse, server: TestServer, amr: [String]) async throws {
        let claims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
        #expect(claims.acr == AuthenticationContextClass.multiFactor)
        #expect(claims.amr == amr)
        let access = JWTParts.payload(tokens.accessToken)
        #expect(access["acr"] as? String == AuthenticationContextClass.multiFactor)
        #expect(access["amr"] as? [String] == amr)
    }

    @Test("password + email code: continuation, code sent to the verified address (masked), tokens with acr mfa", arguments: StoreBackend.available)
    func emailCode(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enableEmail()
            let flow = ChallengeFlow(server)
            let continuation = try await Self.continuation(flow)
            #expect(continuation.mfaMethods == ["email"])
            let session = try #require(continuation.authSession)
            #expect(try await server.mfaMessageCount(to: Fixtures.email) == 0)

            let chosen = try await flow.choose(session, .email)
            #expect(chosen.status == 400)
            let answer = try ChallengeFlow.error(chosen)
            #expect(answer.error == "insufficient_authorization")
            #expect(answer.authSession == session)
            #expect(answer.mfaMethods == ["email"])
            #expect(answer.errorDescription?.contains("a***@example.com") == true)
            #expect(answer.errorDescription?.contains(Fixtures.email) == false)
            let message = try #require(try await server.mfaOutbox.messages(to: Fixtures.email).last)
            #expect(message.channel == .email)
            #expect(message.subject == StringTables.english["message.mfa_code.subject"])

            let code = try await server.lastMFACode(to: Fixtures.email)
            let tokens = try await flow.tokens(try ChallengeFlow.code(try await flow.verify(session, code: code)))
            try await Self.expectMFATokens(tokens, server: server, amr: ["pwd", "otp", "mfa"])

            // The auth session ended with the code: the same answer again is refused.
            let reused = try await flow.verify(session, code: code)
            #expect(try ChallengeFlow.error(reused).errorCode == APIErrorCode.invalidAuthSession.rawValue)
        }
    }

    @Test("password + SMS code to the confirmed number; amr has sms", arguments: StoreBackend.available)
    func smsCode(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enrollSMS("+4712345678", server: server)
            let flow = ChallengeFlow(server)
            let session = try #require(try await Self.continuation(flow).authSession)
            let chosen = try ChallengeFlow.error(try await flow.choose(session, .sms))
            #expect(chosen.errorDescription?.contains("+47******78") == true)
            let message = try #require(try await server.mfaOutbox.messages(to: "+4712345678").last)
            #expect(message.channel == .sms)
            #expect(message.subject == nil)
            let code = try await server.lastMFACode(to: "+4712345678")
            let tokens = try await flow.tokens(try ChallengeFlow.code(try await flow.verify(session, code: code)))
            try await Self.expectMFATokens(tokens, server: server, amr: ["pwd", "sms", "mfa"])
        }
    }

    @Test("password + TOTP; a used time step is refused (replay)", arguments: StoreBackend.available)
    func totpAndReplay(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let totp = try await enrollmentClient(server).enrollTOTP(clock: server.clock)
            server.clock.advance(by: 30)  // the confirmation used the current step
            let flow = ChallengeFlow(server)
            let continuation = try await Self.continuation(flow)
            #expect(continuation.mfaMethods == ["totp"])
            let session = try #require(continuation.authSession)
            let chosen = try ChallengeFlow.error(try await flow.choose(session, .totp))
            #expect(chosen.error == "insufficient_authorization")
            #expect(try await server.mfaMessageCount(to: Fixtures.email) == 0)  // TOTP sends nothing
            let code = totp.code(at: server.clock.now())
            let tokens = try await flow.tokens(try ChallengeFlow.code(try await flow.verify(session, code: code)))
            try await Self.expectMFATokens(tokens, server: server, amr: ["pwd", "otp", "mfa"])

            // Same code, new sign-in within its window: replay.
            let second = ChallengeFlow(server)
            let secondSession = try #require(try await Self.continuation(second).authSession)
            let replay = try ChallengeFlow.error(try await second.verify(secondSession, code: code))
            #expect(replay.errorCode == APIErrorCode.invalidMFACode.rawValue)
            #expect(replay.remainingAttempts == 4)
        }
    }

    @Test("several methods are offered; a method not offered is 2006", arguments: StoreBackend.available)
    func methodChoice(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let enrolment = try await enrollmentClient(server)
            try await enrolment.enableEmail()
            _ = try await enrolment.enrollTOTP(clock: server.clock)
            let flow = ChallengeFlow(server)
            let continuation = try await Self.continuation(flow)
            #expect(continuation.mfaMethods == ["email", "totp"])
            let session = try #require(continuation.authSession)
            let sms = try ChallengeFlow.error(try await flow.choose(session, .sms))
            #expect(sms.errorCode == APIErrorCode.mfaMethodUnavailable.rawValue)
            let bogus = try await flow.http.postForm(
                "/authorize-challenge", ["auth_session": session, "mfa_method": "carrier-pigeon"])
            #expect(try ChallengeFlow.error(bogus).error == "invalid_request")
        }
    }

    @Test("wrong code: 2003 with remaining_attempts; the fifth wrong code ends the session (2005)", arguments: StoreBackend.available)
    func attemptLimit(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enableEmail()
            let flow = ChallengeFlow(server)
            let session = try #require(try await Self.continuation(flow).authSession)
            _ = try await flow.choose(session, .email)
            let code = try await server.lastMFACode(to: Fixtures.email)
            let wrong = code == "000000" ? "000001" : "000000"
            for remaining in [4, 3, 2, 1] {
                let error = try ChallengeFlow.error(try await flow.verify(session, code: wrong))
                #expect(error.error == "invalid_grant")
                #expect(error.errorCode == APIErrorCode.invalidMFACode.rawValue)
                #expect(error.remainingAttempts == remaining)
            }
            let last = try ChallengeFlow.error(try await flow.verify(session, code: wrong))
            #expect(last.errorCode == APIErrorCode.mfaAttemptsExhausted.rawValue)
            #expect(last.remainingAttempts == 0)
            let after = try ChallengeFlow.error(try await flow.verify(session, code: code))
            #expect(after.errorCode == APIErrorCode.invalidAuthSession.rawValue)

            // A malformed code is refused without costing an attempt.
            let other = ChallengeFlow(server)
            let otherSession = try #require(try await Self.continuation(other).authSession)
            _ = try await other.choose(otherSession, .email)
            let malformed = try ChallengeFlow.error(try await other.verify(otherSession, code: "12"))
            #expect(malformed.error == "invalid_request")
            let wrongAfter = try ChallengeFlow.error(try await other.verify(otherSession, code: wrong))
            #expect(wrongAfter.remainingAttempts == 4)
        }
    }

    @Test("an expired code is 2004; a new code can then be requested and works", arguments: StoreBackend.available)
    func expiredCode(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enableEmail()
            let flow = ChallengeFlow(server)
            let session = try #require(try await Self.continuation(flow).authSession)
            _ = try await flow.choose(session, .email)
            let stale = try await server.lastMFACode(to: Fixtures.email)
            server.clock.advance(by: OneTimeCode.lifetime + 1)
            let expired = try ChallengeFlow.error(try await flow.verify(session, code: stale))
            #expect(expired.errorCode == APIErrorCode.mfaCodeExpired.rawValue)

            _ = try await flow.choose(session, .email)
            let fresh = try await server.lastMFACode(to: Fixtures.email)
            if fresh != stale {
                let old = try ChallengeFlow.error(try await flow.verify(session, code: stale))
                #expect(old.errorCode == APIErrorCode.invalidMFACode.rawValue)
            }
            _ = try ChallengeFlow.code(try await flow.verify(session, code: fresh))
        }
    }

    @Test("unknown or expired auth_session: 2007", arguments: StoreBackend.available)
    func unknownSession(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enableEmail()
            let flow = ChallengeFlow(server)
            let unknown = try ChallengeFlow.error(try await flow.choose(SecureRandom.token(), .email))
            #expect(unknown.errorCode == APIErrorCode.invalidAuthSession.rawValue)
            #expect(unknown.error == "invalid_grant")

            let session = try #require(try await Self.continuation(flow).authSession)
            server.clock.advance(by: AuthSessionFlow.lifetime + 1)
            let expired = try ChallengeFlow.error(try await flow.choose(session, .email))
            #expect(expired.errorCode == APIErrorCode.invalidAuthSession.rawValue)
            #expect(try await server.mfaMessageCount(to: Fixtures.email) == 0)
        }
    }

    @Test("a continuation naming another client is refused", arguments: StoreBackend.available)
    func sessionBoundToClient(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enableEmail()
            let flow = ChallengeFlow(server)
            let session = try #require(try await Self.continuation(flow).authSession)
            let other = try ChallengeFlow.error(
                try await flow.choose(session, .email, extra: ["client_id": Fixtures.secondApp]))
            #expect(other.errorCode == APIErrorCode.invalidAuthSession.rawValue)
        }
    }

    @Test("policy never: password suffices even with MFA enrolled, unless acr_values asks for mfa", arguments: StoreBackend.available)
    func policyNever(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enableEmail()
            try await server.addMFATestClient("relaxed", policy: .never)
            let flow = ChallengeFlow(server, clientID: "relaxed")
            _ = try ChallengeFlow.code(try await flow.start())
            let asked = try await Self.continuation(flow, extra: ["acr_values": AuthenticationContextClass.multiFactor])
            #expect(asked.mfaMethods == ["email"])
        }
    }

    @Test("policy always: email codes for a verified user without enrolment; 2006 without a verified email", arguments: StoreBackend.available)
    func policyAlways(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await server.addMFATestClient("strict", policy: .always)
            let flow = ChallengeFlow(server, clientID: "strict")
            let continuation = try await Self.continuation(flow)
            #expect(continuation.mfaMethods == ["email"])
            let session = try #require(continuation.authSession)
            _ = try await flow.choose(session, .email)
            let code = try await server.lastMFACode(to: Fixtures.email)
            let tokens = try await flow.tokens(try ChallengeFlow.code(try await flow.verify(session, code: code)))
            try await Self.expectMFATokens(tokens, server: server, amr: ["pwd", "otp", "mfa"])

            _ = try await server.addMFATestUser("bob", emailVerified: false)
            let bob = try await flow.start(username: "bob")
            #expect(bob.status == 400)
            let error = try ChallengeFlow.error(bob)
            #expect(error.errorCode == APIErrorCode.mfaMethodUnavailable.rawValue)
            #expect(error.authSession == nil)
            #expect(error.errorDescription?.contains("enrol") == true)
        }
    }

    @Test("policy when_enrolled: users without a second factor sign in with the password alone", arguments: StoreBackend.available)
    func policyWhenEnrolled(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = ChallengeFlow(server)
            let tokens = try await flow.passwordTokens()
            let claims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            #expect(claims.acr == AuthenticationContextClass.password)
        }
    }

    @Test("continuation error_user_msg follows the ui_locales of the start", arguments: StoreBackend.available)
    func localizedContinuation(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enableEmail()
            let flow = ChallengeFlow(server)
            let session = try #require(try await Self.continuation(flow, extra: ["ui_locales": "fr"]).authSession)
            _ = try await flow.choose(session, .email)
            let error = try ChallengeFlow.error(try await flow.verify(session, code: "99999x"))
            #expect(error.errorUserMessage == StringTableLocalizer().string(error.errorMessageKey ?? "", locales: ["fr"]))
            let message = try #require(try await server.mfaOutbox.messages(to: Fixtures.email).last)
            #expect(message.subject == StringTableLocalizer().string("message.mfa_code.subject", locales: ["fr"]))
        }
    }
}
