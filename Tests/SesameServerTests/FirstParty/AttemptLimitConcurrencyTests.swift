import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Every attempt counter of codes under concurrency (docs/first-party-and-accounts.md, "Attempt
/// limits"; issue #28 §2), over real HTTP against the real server: 20 wrong answers sent at once
/// get exactly the allowed 5 compared, each told its own `remaining_attempts` (4, 3, 2, 1, then
/// the end), and the right answer sent afterwards never succeeds.
@Suite("Attempt limits under concurrency: MFA codes, enrolments, account codes, codes sent")
struct AttemptLimitConcurrencyTests {
    static let parallel = 20

    /// 20 distinct 6-digit codes, none of them in `right`.
    static func wrongCodes(avoiding right: Set<String>) -> [String] {
        var codes: [String] = []
        var candidate = 100_000
        while codes.count < parallel {
            let code = String(candidate)
            if !right.contains(code) { codes.append(code) }
            candidate += 1
        }
        return codes
    }

    /// Sends every request of `send` at once; the answers.
    static func atOnce(_ count: Int = parallel, _ send: @escaping @Sendable (Int) async throws -> TestResponse) async throws
        -> [TestResponse]
    {
        try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for index in 0..<count { group.addTask { try await send(index) } }
            return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
        }
    }

    /// `remaining_attempts` of the answers with `code`, sorted.
    static func remaining(_ answers: [TestResponse], code: APIErrorCode) -> [Int] {
        answers.compactMap { $0.apiError }.filter { $0.code == code }.compactMap(\.remainingAttempts).sorted()
    }

    @Test(
        "sign-in code (email, SMS, TOTP): 20 wrong codes at once compare exactly 5, the session ends once, and the right code afterwards is refused",
        arguments: StoreBackend.available, [MFAMethod.email, .sms, .totp])
    func signInCode(backend: StoreBackend, method: MFAMethod) async throws {
        try await withTestServer(backend) { server in
            server.clock.freeze()
            let enrolment = try await enrollmentClient(server)
            var totp: TOTP?
            switch method {
            case .email: try await enrolment.enableEmail()
            case .sms: try await enrolment.enrollSMS("+4712345678", server: server)
            default:
                totp = try await enrolment.enrollTOTP(clock: server.clock)
                server.clock.advance(by: 30)  // the confirmation used the current step
            }
            let flow = ChallengeFlow(server)
            let session = try #require(try await MFASignInTests.continuation(flow).authSession)
            _ = try await flow.choose(session, method)
            let right: String
            var rightCodes: Set<String>
            if let totp {
                let now = server.clock.now()
                right = totp.code(at: now)
                rightCodes = [totp.code(at: now.addingTimeInterval(-30)), right, totp.code(at: now.addingTimeInterval(30))]
            } else {
                right = try await server.lastMFACode(to: method == .sms ? "+4712345678" : Fixtures.email)
                rightCodes = [right]
            }
            let wrong = Self.wrongCodes(avoiding: rightCodes)
            let answers = try await Self.atOnce { try await flow.verify(session, code: wrong[$0]) }

            #expect(answers.allSatisfy { $0.status == 400 }, "a wrong code signed in")
            #expect(
                Self.remaining(answers, code: .invalidMFACode) == [1, 2, 3, 4],
                "each compared wrong code but the last is told its own attempts left")
            await server.running.flushAuditLog()
            let log = server.store
            let failed = try await log.auditRecords(AuditQuery(events: ["mfa.failed"])).map { $0.reason ?? "" }
            let compared = failed.filter { $0 == "invalid_code" || $0 == "attempts_exhausted" }
            #expect(compared.count == 5, "\(compared.count) codes were compared; the limit is 5 (\(failed))")
            #expect(failed.filter { $0 == "attempts_exhausted" }.count == 1, "the session ended once")

            let after = try await flow.verify(session, code: right)
            #expect(after.status == 400, "the right code after the limit must not sign in")
            #expect([.invalidAuthSession, .mfaAttemptsExhausted].contains(after.apiError?.code))
        }
    }

    @Test(
        "codes sent for one sign-in: 20 requests for an email code at once send exactly 5",
        arguments: StoreBackend.available)
    func codesSent(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await enrollmentClient(server).enableEmail()
            let flow = ChallengeFlow(server)
            let session = try #require(try await MFASignInTests.continuation(flow).authSession)
            let answers = try await Self.atOnce { _ in try await flow.choose(session, .email) }
            let sent = try await server.mfaMessageCount(to: Fixtures.email)
            #expect(sent == AuthSessionFlow.maxCodesSent, "\(sent) codes were sent; the limit is \(AuthSessionFlow.maxCodesSent)")
            #expect(answers.filter { $0.apiError?.code == .rateLimited }.count == Self.parallel - AuthSessionFlow.maxCodesSent)
        }
    }

    @Test(
        "SMS enrolment: 20 wrong confirmation codes at once compare exactly 5; the right code afterwards confirms nothing",
        arguments: StoreBackend.available)
    func enrolmentConfirmation(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let enrolment = try await enrollmentClient(server)
            let started = try await enrolment.post("/api/mfa/sms", json: #"{"phone_number":"+4712345678"}"#)
            try #require(started.status == 202, "\(started.text)")
            let right = try await server.lastMFACode(to: "+4712345678")
            let wrong = Self.wrongCodes(avoiding: [right])
            let answers = try await Self.atOnce { index in
                try await enrolment.post("/api/mfa/sms/confirm", json: #"{"code":"\#(wrong[index])"}"#)
            }
            #expect(answers.allSatisfy { $0.status != 200 }, "a wrong code confirmed the enrolment")
            #expect(Self.remaining(answers, code: .invalidMFACode) == [1, 2, 3, 4], "\(answers.map(\.text))")
            await server.running.flushAuditLog()
            let log = server.store
            let ended = try await log.auditRecords(AuditQuery(events: ["mfa.failed"])).filter { $0.reason == "attempts_exhausted" }
            #expect(ended.count == 1, "the fifth wrong code discards the enrolment, once")

            let after = try await enrolment.post("/api/mfa/sms/confirm", json: #"{"code":"\#(right)"}"#)
            #expect(after.status != 200, "the right code after the limit must not confirm: \(after.text)")
            let mfa = server.store
            let user = try #require(try await server.store.user(login: Fixtures.username))
            #expect(try await mfa.mfaEnrollments(userID: user.id).contains { $0.method == .sms && $0.confirmed } == false)
        }
    }

    @Test(
        "password reset code: 20 wrong codes at once compare exactly 5, each told its own attempts left; the right code afterwards changes nothing",
        arguments: StoreBackend.available)
    func verificationCode(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let requested = try await api.post("/api/password/reset", ["email": Fixtures.email])
            try #require(requested.status == 202, "\(requested.text)")
            let right = try await api.latestCode(to: Fixtures.email, purpose: "password_reset")
            let wrong = Self.wrongCodes(avoiding: [right])
            let answers = try await Self.atOnce { index in
                try await api.post(
                    "/api/password/reset/confirm",
                    ["email": Fixtures.email, "code": wrong[index], "new_password": "brand new password 1"])
            }
            #expect(answers.allSatisfy { $0.status == 400 })
            let compared = answers.compactMap(\.apiError).filter { $0.errorDescription?.contains("incorrect") == true }
            #expect(compared.count == 5, "\(compared.count) codes were compared; the limit is 5")
            #expect(compared.compactMap(\.remainingAttempts).sorted() == [0, 1, 2, 3, 4])
            await api.server.running.flushAuditLog()
            let log = api.server.store
            #expect(try await log.auditRecords(AuditQuery(events: ["account.code_exhausted"])).count == 1)

            let after = try await api.post(
                "/api/password/reset/confirm", ["email": Fixtures.email, "code": right, "new_password": "brand new password 1"])
            #expect(after.apiError?.code == .invalidVerificationCode, "the right code after the limit: \(after.text)")
            #expect(try await api.signIn(Fixtures.username, Fixtures.password) != nil, "password unchanged")
        }
    }
}
