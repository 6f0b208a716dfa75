import Foundation
import SesameTesting
import Sesame
import SesameProtocol
import SesameServer
import Testing

/// Native first-party sign-in (docs/first-party-and-accounts.md) through the SDK against the real server in process:
/// password only, each second factor (email code from the outbox, TOTP computed here, SMS),
/// wrong password and wrong code, step-up and re-authentication.
@Suite("Native sign-in, MFA, step-up and re-authentication against the server")
struct NativeSignInTests {
    @Test("password only signs in and stores the session")
    func passwordOnlySignsInAndStoresTheSession() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            let events = client.events()
            let account = try await passwordLogin(client, user)
            #expect(account.subject == user.sub)
            #expect(await client.currentAccount() == account)
            var iterator = events.makeAsyncIterator()
            guard case .signedIn(let announced) = await iterator.next() else {
                Issue.record("expected a signedIn event")
                return
            }
            #expect(announced == account)

            let claims = try await client.idTokenClaims()
            #expect(claims.acr == AuthenticationContextClass.password)
            #expect(claims.amr == [AuthenticationMethodReference.password])
            #expect(claims.nonce == nil)
            // The tokens work: userinfo with the bearer, and a refresh with the rotated token.
            #expect(try await client.userInfo().sub == user.sub)
            let first = try await client.validAccessToken()
            let refreshed = try await client.validAccessToken(forceRefresh: true)
            #expect(first != refreshed)
            // The email works as the login name too.
            let second = server.sdk()
            switch try await second.login(username: user.email, password: user.password) {
            case .signedIn(let viaEmail): #expect(viaEmail.subject == user.sub)
            case .mfaRequired: Issue.record("no MFA expected")
            }
        }
    }

    @Test("a client that is not first party cannot sign in natively")

    func aClientThatIsNotFirstPartyCannotSignInNatively() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let admin = ServerAdmin(
                store: server.running.store, hasher: TestServer.hasher, keyRing: server.running.keyRing)
            _ = try await admin.addClient(
                ClientSpec(clientID: "sdk-it-rp", redirectURIs: [IntegrationServer.redirectURI]))
            let client = server.sdk(clientID: "sdk-it-rp")
            let error = await #expect(throws: SesameError.self) {
                _ = try await client.login(username: user.username, password: user.password)
            }
            #expect(error?.apiError?.code == .unauthorizedClient, "\(String(describing: error))")
            #expect(error?.apiError?.errorDescription?.contains("--first-party") == true)
            #expect(await client.accounts().isEmpty)
        }
    }

    @Test("wrong password and unknown user get the same answer")

    func wrongPasswordAndUnknownUserGetTheSameAnswer() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            for (name, password) in [(user.username, "not-the-password"), ("nobody", "whatever-it-is")] {
                let error = await #expect(throws: SesameError.self) {
                    _ = try await client.login(username: name, password: password)
                }
                guard case .authenticationFailed(let apiError, 400)? = error?.reason else {
                    Issue.record("expected authenticationFailed, got \(String(describing: error))")
                    continue
                }
                #expect(apiError.code == .invalidCredentials)
            }
            #expect(await client.accounts().isEmpty)
        }
    }

    @Test("too many wrong passwords are throttled with Retry-After")

    func tooManyWrongPasswordsAreThrottledWithRetryAfter() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            for _ in 1...5 {
                await #expect(throws: SesameError.self) {
                    _ = try await client.login(username: user.username, password: "not-the-password")
                }
            }
            // Even the right password is refused now, without being checked.
            let error = await #expect(throws: SesameError.self) {
                _ = try await client.login(username: user.username, password: user.password)
            }
            guard case .requestFailed(let apiError, 429)? = error?.reason else {
                Issue.record("expected requestFailed 429, got \(String(describing: error))")
                return
            }
            #expect(apiError.code == .tooManyAttempts)
            #expect(error?.apiErrorCode == .tooManyAttempts)
            #expect((1...30).contains(error?.retryAfter ?? 0), "the first lockout is 30 s")
            #expect(apiError.errorUserMessage?.isEmpty == false)
            #expect(apiError.errorID != nil)
            #expect(await client.accounts().isEmpty)
        }
    }

    @Test("email code as second factor")

    func emailCodeAsSecondFactor() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            try await client.mfa.enableEmail()
            #expect(try await client.mfa.methods().contains { $0.method == .email && $0.confirmed })
            _ = try await client.logout(revoke: false)

            let challenge = try await mfaLogin(client, user)
            #expect(challenge.methods == [.email])
            #expect(await client.accounts().isEmpty, "nothing is stored before the second factor")
            let before = try await server.messageCount(to: user.email)
            let delivery = try await challenge.start(.email)
            #expect(delivery.method == .email)
            #expect(delivery.destination?.contains("@example.com") == true)
            #expect(delivery.destination?.contains(user.email) == false, "the address is masked")
            #expect(try await server.messageCount(to: user.email) == before + 1)
            #expect(challenge.chosenMethod == .email)

            let account = try await challenge.verify(code: try await server.latestCode(to: user.email))
            #expect(account.subject == user.sub)
            #expect(await client.currentAccount() == account)
            let claims = try await client.idTokenClaims()
            #expect(claims.acr == AuthenticationContextClass.multiFactor)
            #expect(claims.amr == ["pwd", "otp", "mfa"])
            let access = JWTParts.payload(try await client.validAccessToken())
            #expect(access["acr"] as? String == AuthenticationContextClass.multiFactor)
        }
    }

    @Test("wrong code reports remaining attempts then the right one works")

    func wrongCodeReportsRemainingAttemptsThenTheRightOneWorks() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            try await client.mfa.enableEmail()
            _ = try await client.logout(revoke: false)

            let challenge = try await mfaLogin(client, user)
            _ = try await challenge.start(.email)
            let code = try await server.latestCode(to: user.email)
            let wrong = code == "000000" ? "111111" : "000000"
            var remaining: [Int] = []
            for _ in 0..<2 {
                let error = await #expect(throws: SesameError.self) {
                    _ = try await challenge.verify(code: wrong)
                }
                #expect(error?.apiErrorCode == .invalidMFACode)
                remaining.append(error?.remainingAttempts ?? -1)
            }
            #expect(remaining == [4, 3])
            #expect(await client.accounts().isEmpty)
            let account = try await challenge.verify(code: code)
            #expect(account.subject == user.sub)
            // The auth_session is single use.
            let replay = await #expect(throws: SesameError.self) {
                _ = try await challenge.verify(code: code)
            }
            #expect(replay?.apiErrorCode == .invalidAuthSession)
        }
    }

    @Test("TOTP enrolled through the SDK")

    func totpEnrolledThroughTheSDK() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            let enrollment = try await client.mfa.enrollTOTP()
            #expect(enrollment.otpauthURI.hasPrefix("otpauth://totp/"))
            #expect(enrollment.otpauthURI.contains("secret=\(enrollment.secret)"))
            #expect(try await client.mfa.methods().contains { $0.method == .totp && !$0.confirmed })
            // Each step is accepted only once; the second code is computed when it is sent, from
            // the clock then (``TestTOTP/nextStep(after:now:)``).
            let base = TestTOTP.currentStep()
            try await client.mfa.confirmTOTP(code: TestTOTP.code(secret: enrollment.secret, step: base))
            #expect(try await client.mfa.methods().contains { $0.method == .totp && $0.confirmed })
            _ = try await client.logout(revoke: false)

            let challenge = try await mfaLogin(client, user)
            #expect(challenge.methods.contains(.totp))
            let delivery = try await challenge.start(.totp)
            #expect(delivery.destination == nil, "nothing is sent for TOTP")
            #expect(try await server.messageCount(to: user.email) == 0)
            // A used step is refused (RFC 6238 §5.2), then the next one signs in.
            let reused = await #expect(throws: SesameError.self) {
                _ = try await challenge.verify(code: TestTOTP.code(secret: enrollment.secret, step: base))
            }
            #expect(reused?.apiErrorCode == .invalidMFACode)
            _ = try await challenge.verify(code: TestTOTP.code(secret: enrollment.secret, step: TestTOTP.nextStep(after: base)))
            let claims = try await client.idTokenClaims()
            #expect(claims.acr == AuthenticationContextClass.multiFactor)
            #expect(claims.amr == ["pwd", "otp", "mfa"])
        }
    }

    @Test("SMS code as second factor")

    func smsCodeAsSecondFactor() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let phone = "+4712345678"
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            try await client.mfa.enrollSMS(phoneNumber: phone)
            #expect(try await client.mfa.methods().contains { $0.method == .sms && !$0.confirmed })
            try await client.mfa.confirmSMS(code: try await server.latestCode(to: phone))
            #expect(try await client.mfa.methods().contains { $0.method == .sms && $0.confirmed })
            _ = try await client.logout(revoke: false)

            let challenge = try await mfaLogin(client, user)
            #expect(challenge.methods == [.sms])
            let delivery = try await challenge.start(.sms)
            #expect(delivery.destination?.contains(phone) == false, "the number is masked")
            _ = try await challenge.verify(code: try await server.latestCode(to: phone))
            let claims = try await client.idTokenClaims()
            #expect(claims.acr == AuthenticationContextClass.multiFactor)
            #expect(claims.amr?.contains("sms") == true)
            #expect(claims.amr?.contains("mfa") == true)
        }
    }

    @Test("step up raises the access tokens ACR, for bearer and for DPoP-bound sessions", arguments: [false, true])
    func stepUpRaisesTheAccessTokensACR(dpop: Bool) async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk(dpop: dpop ? .required : .off)
            let account = try await passwordLogin(client, user)
            let before = try await client.validAccessToken()
            #expect(JWTParts.payload(before)["acr"] as? String == AuthenticationContextClass.password)
            try await client.mfa.enableEmail()

            let challenge = try await client.stepUp()
            #expect(challenge.methods == [.email])
            _ = try await challenge.start(.email)
            let stepped = try await challenge.verify(code: try await server.latestCode(to: user.email))
            #expect(stepped.id == account.id)
            #expect(await client.accounts().map(\.id) == [account.id])
            let after = try await client.validAccessToken()
            #expect(after != before)
            #expect(JWTParts.payload(after)["acr"] as? String == AuthenticationContextClass.multiFactor)
            #expect(try await client.idTokenClaims().acr == AuthenticationContextClass.multiFactor)
            // The replaced session keeps working: refresh and userinfo.
            _ = try await client.validAccessToken(forceRefresh: true)
            #expect(try await client.userInfo().sub == user.sub)
            // A DPoP-bound session stays bound to its key through the step-up.
            let cnf = JWTParts.payload(try await client.validAccessToken())["cnf"] as? [String: Any]
            #expect((cnf?["jkt"] != nil) == dpop)
            #expect((JWTParts.payload(before)["cnf"] as? [String: Any])?["jkt"] as? String == cnf?["jkt"] as? String)
        }
    }

    @Test("step up without a second factor says what to do")

    func stepUpWithoutASecondFactorSaysWhatToDo() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            let error = await #expect(throws: SesameError.self) { _ = try await client.stepUp() }
            #expect(error?.apiErrorCode == .mfaMethodUnavailable)
        }
    }

    @Test("reauthentication gives a short lived token and keeps the session")

    func reauthenticationGivesAShortLivedTokenAndKeepsTheSession() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let recorder = TokenResponseRecorder()
            let client = server.sdk(transport: recorder)
            let account = try await passwordLogin(client, user)
            let sessionToken = try await client.validAccessToken()

            let started = Date()
            guard case .reauthenticated(let grant) = try await client.reauthenticate(password: user.password) else {
                Issue.record("expected a grant without MFA")
                return
            }
            let finished = Date()
            let issued = try recorder.last()
            #expect(issued["refresh_token"] == nil, "re-authentication issues no refresh token")
            #expect((issued["expires_in"] as? Int ?? .max) <= 300)
            #expect(grant.account.id == account.id)
            #expect(grant.idTokenClaims.sub == user.sub)
            let expiresAt = try #require(grant.expiresAt)
            // 300 s at most from when the answer arrived (the SDK counts from then), whatever a
            // loaded machine took for the sign-in itself.
            #expect(expiresAt <= finished.addingTimeInterval(301))
            let authTime = try #require(grant.idTokenClaims.authTime)
            #expect(authTime >= started.addingTimeInterval(-2))
            #expect(JWTParts.payload(grant.accessToken)["sub"] as? String == user.sub)
            // Not stored: the session's token is unchanged.
            #expect(try await client.validAccessToken() == sessionToken)
            #expect(grant.accessToken != sessionToken)

            let wrong = await #expect(throws: SesameError.self) {
                _ = try await client.reauthenticate(password: "not-the-password")
            }
            #expect(wrong?.apiErrorCode == .invalidCredentials)
            #expect(await client.currentAccount() == account, "a failed re-authentication keeps the session")
        }
    }

    @Test("reauthentication after browser sign in finds the login name")

    func reauthenticationAfterBrowserSignInFindsTheLoginName() async throws {
        try await withServer { server in
            // The browser flow never saw the login name; the SDK asks userinfo for it.
            let client = server.sdk()
            let account = try await client.signIn(with: server.agent())
            guard case .reauthenticated(let grant) = try await client.reauthenticate(password: IntegrationServer.password)
            else {
                Issue.record("expected a grant without MFA")
                return
            }
            #expect(grant.account.id == account.id)
            #expect(grant.idTokenClaims.sub == account.subject)
        }
    }

    @Test("reauthentication with a second factor")

    func reauthenticationWithASecondFactor() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            try await client.mfa.enableEmail()
            guard case .mfaRequired(let challenge) = try await client.reauthenticate(password: user.password) else {
                Issue.record("expected MFA for a user with email codes")
                return
            }
            _ = try await challenge.start(.email)
            let grant = try await challenge.verify(code: try await server.latestCode(to: user.email))
            #expect(grant.idTokenClaims.acr == AuthenticationContextClass.multiFactor)
            #expect(grant.idTokenClaims.sub == user.sub)
        }
    }
}
