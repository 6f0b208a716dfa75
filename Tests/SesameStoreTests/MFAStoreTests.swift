import Foundation
import Logging
import SesameProtocol
import Testing
import StoreTesting
@testable import SesameStore

@Suite("MFA store and client MFA policy (SQLite and PostgreSQL)")
struct MFAStoreTests {
    static func session(_ digest: String, now: Date = Date()) -> AuthSessionRecord {
        AuthSessionRecord(
            sessionDigest: digest, clientID: "app", userID: "u1", scope: "openid", codeChallenge: PKCE().challenge,
            methods: [.email, .totp], firstFactor: ["pwd"], createdAt: now, expiresAt: now.addingTimeInterval(300))
    }

    @Test("concurrent answers never get more than 5 attempts; exactly one caller consumes a session", arguments: StoreBackend.available)
    func attemptsAndConsumption(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            try await store.insertAuthSession(Self.session("s1"))
            let reserved = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await store.reserveAuthSessionAttempt(digest: "s1", maxAttempts: 5) }
                }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            #expect(reserved.compactMap { $0 }.sorted() == [1, 2, 3, 4, 5], "each reservation is told its own count")
            #expect(try await store.authSession(digest: "s1")?.attempts == 5)
            #expect(try await store.reserveAuthSessionAttempt(digest: "s1", maxAttempts: 5) == nil)

            try await store.insertAuthSession(Self.session("s2"))
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 { group.addTask { try await store.consumeAuthSession(digest: "s2", now: Date()) } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            #expect(try await store.authSession(digest: "s2") == nil)

            try await store.insertAuthSession(Self.session("s3", now: Date().addingTimeInterval(-600)))
            #expect(try await store.consumeAuthSession(digest: "s3", now: Date()) == false)
            try await store.purgeExpiredMFAData(now: Date())
            #expect(try await store.authSession(digest: "s3") == nil)
            #expect(try await store.authSession(digest: "s1") != nil)
        }
    }

    @Test("a TOTP time step is accepted once, and never an earlier one", arguments: StoreBackend.available)
    func totpReplay(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            try await store.saveMFAEnrollment(
                MFAEnrollmentRecord(userID: "u1", method: .totp, confirmed: true, sealedSecret: "x", createdAt: Date()))
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 { group.addTask { try await store.useTOTPStep(userID: "u1", step: 100) } }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1)
            #expect(try await store.useTOTPStep(userID: "u1", step: 99) == false)
            #expect(try await store.useTOTPStep(userID: "u1", step: 101) == true)
            #expect(try await store.useTOTPStep(userID: "u2", step: 500) == false)  // not enrolled
        }
    }

    @Test("enrolments: upsert per method, confirm, remove; removeMFAData clears a user only", arguments: StoreBackend.available)
    func enrollments(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = Date()
            try await store.saveMFAEnrollment(
                MFAEnrollmentRecord(
                    userID: "u1", method: .sms, confirmed: false, phoneNumber: "+4712345678", codeDigest: "d",
                    codeExpiresAt: now, createdAt: now))
            try await store.saveMFAEnrollment(
                MFAEnrollmentRecord(userID: "u1", method: .sms, confirmed: false, phoneNumber: "+4799999999", createdAt: now))
            try await store.saveMFAEnrollment(MFAEnrollmentRecord(userID: "u2", method: .email, confirmed: true, createdAt: now))
            let u1 = try await store.mfaEnrollments(userID: "u1")
            #expect(u1.count == 1)
            #expect(u1.first?.phoneNumber == "+4799999999")
            #expect(try await store.reserveEnrollmentAttempt(userID: "u1", method: .sms, maxAttempts: 5) == 1)
            try await store.confirmMFAEnrollment(userID: "u1", method: .sms, at: now)
            let confirmed = try #require(try await store.mfaEnrollments(userID: "u1").first)
            #expect(confirmed.confirmed)
            #expect(confirmed.attempts == 0)
            #expect(confirmed.codeDigest == nil)
            #expect(try await store.removeMFAEnrollment(userID: "u1", method: .totp) == false)

            try await store.insertAuthSession(Self.session("s1"))
            try await store.removeMFAData(userID: "u1")
            #expect(try await store.mfaEnrollments(userID: "u1").isEmpty)
            #expect(try await store.authSession(digest: "s1") == nil)
            #expect(try await store.mfaEnrollments(userID: "u2").count == 1)
        }
    }

    @Test("client mfa_policy persists across a reopen; migrations are idempotent; re-auth markers", arguments: StoreBackend.available)
    func clientPolicy(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            try await store.upsertClient(ClientRecord(clientID: "a", name: "A", mfaPolicy: .always))
            try await store.upsertClient(ClientRecord(clientID: "b", name: "B"))
            try await store.markReauthenticationCode(digest: "c1", expiresAt: Date().addingTimeInterval(60))
            try await store.migrate()
            let reopened = try await sandbox.open()
            #expect(try await reopened.client(id: "a")?.mfaPolicy == .always)
            #expect(try await reopened.client(id: "b")?.mfaPolicy == .whenEnrolled)
            #expect(try await reopened.isReauthenticationCode(digest: "c1"))
            #expect(try await reopened.isReauthenticationCode(digest: "c2") == false)
            try await reopened.close()
        }
    }
}
