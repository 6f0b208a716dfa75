import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

/// The one-time codes behind sign-up, password reset and email change, driven through the
/// password reset endpoints (which can ask for a new code at will).
@Suite("Verification codes")
struct VerificationCodeTests {
    private func requestReset(_ api: AccountAPI) async throws -> String {
        let response = try await api.post("/api/password/reset", ["email": Fixtures.email])
        try #require(response.status == 202, "\(response.text)")
        return try await api.latestCode(to: Fixtures.email, purpose: "password_reset")
    }

    private func confirm(_ api: AccountAPI, code: String, password: String = "brand new password 1")
        async throws -> TestResponse
    {
        try await api.post(
            "/api/password/reset/confirm", ["email": Fixtures.email, "code": code, "new_password": password])
    }

    private static func wrong(_ code: String) -> String { code == "999999" ? "999998" : "999999" }

    @Test("codes are 6 digits, stored only as a digest bound to user and purpose", arguments: StoreBackend.available)
    func storedAsDigest(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let code = try await requestReset(api)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            let store = api.server.store
            let user = try #require(try await api.server.store.user(login: Fixtures.username))
            let record = try #require(try await store.verificationCode(userID: user.id, purpose: "password_reset"))
            #expect(!record.codeDigest.contains(code))
            #expect(record.codeDigest != SecretDigest.of(code), "the digest is bound to user and purpose")
            #expect(record.codeDigest == VerificationCodes.digest(code, purpose: .passwordReset, userID: user.id))
            #expect(record.expiresAt.timeIntervalSince(record.createdAt) == 15 * 60)
        }
    }

    @Test("each wrong answer counts down remaining_attempts; after 5 the right code is dead too", arguments: StoreBackend.available)
    func attemptLimit(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let code = try await requestReset(api)
            for expected in (0..<5).reversed() {
                let response = try await confirm(api, code: Self.wrong(code))
                #expect(response.status == 400)
                #expect(response.apiError?.code == .invalidVerificationCode)
                #expect(response.apiError?.remainingAttempts == expected)
            }
            let dead = try await confirm(api, code: code)
            #expect(dead.apiError?.code == .invalidVerificationCode)
            #expect(dead.apiError?.remainingAttempts == 0)
            #expect(try await api.signIn(Fixtures.username, Fixtures.password) != nil, "password unchanged")
        }
    }

    @Test("a code expires after 15 minutes", arguments: StoreBackend.available)
    func expiry(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let code = try await requestReset(api)
            api.server.clock.advance(by: 15 * 60 + 1)
            let expired = try await confirm(api, code: code)
            #expect(expired.status == 400)
            #expect(expired.apiError?.code == .invalidVerificationCode)
            #expect(expired.apiError?.remainingAttempts == 0)
        }
    }

    @Test("a code is single use, and a new code replaces the previous one", arguments: StoreBackend.available)
    func singleUseAndReplacement(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let first = try await requestReset(api)
            var second = try await requestReset(api)
            while second == first { second = try await requestReset(api) }
            let replaced = try await confirm(api, code: first)
            #expect(replaced.apiError?.code == .invalidVerificationCode)

            let accepted = try await confirm(api, code: second)
            #expect(accepted.status == 200, "\(accepted.text)")
            let reused = try await confirm(api, code: second, password: "another new password 2")
            #expect(reused.apiError?.code == .invalidVerificationCode)
            #expect(try await api.signIn(Fixtures.username, "brand new password 1") != nil)
        }
    }

    @Test("a malformed code is a validation error and uses no attempt", arguments: StoreBackend.available)
    func malformedCode(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let code = try await requestReset(api)
            let malformed = try await confirm(api, code: "12ab56")
            #expect(malformed.apiError?.code == .validationFailed)
            #expect(malformed.detailCodes == ["code: invalid_format"])
            let wrong = try await confirm(api, code: Self.wrong(code))
            #expect(wrong.apiError?.remainingAttempts == 4)
        }
    }

    @Test("concurrent guesses never exceed the attempt limit", arguments: StoreBackend.available)
    func concurrentGuesses(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let code = try await requestReset(api)
            let guesses = (0..<12).map { String(format: "%06d", (Int(code)! + 1 + $0) % 1_000_000) }
            let statuses = try await withThrowingTaskGroup(of: Int?.self) { group in
                for guess in guesses { group.addTask { try await confirm(api, code: guess).apiError?.remainingAttempts } }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            #expect(statuses.count == 12)
            let counted = statuses.compactMap { $0 }.filter { $0 > 0 }.count
            #expect(counted <= 4, "at most 4 answers report attempts left")
            let afterwards = try await confirm(api, code: code)
            #expect(afterwards.apiError?.code == .invalidVerificationCode, "the limit was reached")
        }
    }
}
