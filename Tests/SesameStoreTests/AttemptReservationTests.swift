import Foundation
import SesameProtocol
import StoreTesting
import Testing
@testable import SesameStore

/// Every attempt counter's reservation in each store (docs/first-party-and-accounts.md, "Attempt
/// limits"): 20 reservations at once, through two connections (as two server processes would
/// make them), get exactly the counts 1…max, each once, and the rest `nil`; the settles refuse
/// what ended meanwhile.
@Suite("Store: attempts are reserved exactly, also through two connections")
struct AttemptReservationTests {
    /// `reserve` 20 times at once, alternating between `store` and `other`; the counts granted.
    static func reserve(
        _ store: SQLIdentityStore, _ other: SQLIdentityStore,
        _ reserve: @escaping @Sendable (SQLIdentityStore) async throws -> Int?
    ) async throws -> (granted: [Int], refused: Int) {
        let results = try await withThrowingTaskGroup(of: Int?.self) { group in
            for index in 0..<20 { group.addTask { try await reserve(index % 2 == 0 ? store : other) } }
            return try await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        return (results.compactMap { $0 }.sorted(), results.filter { $0 == nil }.count)
    }

    @Test("PIN: 20 reservations get 1, 2, 3 once each; a settle on a revoked registration fails", arguments: StoreBackend.available)
    func pin(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let other = try await sandbox.open()
            let now = StoreSamples.now()
            try await store.insertPINRegistration(
                PINRegistrationRecord(
                    id: "pin-1", userID: "u1", clientID: "app", label: nil, publicKey: Data(repeating: 7, count: 32),
                    failures: 0, createdAt: now, lastUsedAt: nil))
            let race = try await Self.reserve(store, other) { try await $0.reservePINAttempt(id: "pin-1", maxAttempts: 3) }
            #expect(race.granted == [1, 2, 3] && race.refused == 17, "\(race)")
            #expect(try await store.settlePINSuccess(id: "pin-1", now: now), "a right PIN starts over")
            #expect(try await store.reservePINAttempt(id: "pin-1", maxAttempts: 3) == 1)
            try await store.removePINRegistration(id: "pin-1")
            #expect(try await other.settlePINSuccess(id: "pin-1", now: now) == false, "revoked meanwhile: no settle")
            #expect(try await other.reservePINAttempt(id: "pin-1", maxAttempts: 3) == nil)
            try await other.close()
        }
    }

    @Test("passkey: 20 reservations get 1…5 once each; a lock is taken once, stops reservations and uses; a release gives one back", arguments: StoreBackend.available)
    func passkey(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let other = try await sandbox.open()
            let now = StoreSamples.now()
            try await store.insertPasskey(PasskeyStoreTests.passkey("cred-1", user: "u1", at: now))
            let race = try await Self.reserve(store, other) { try await $0.reservePasskeyAttempt(credentialID: "cred-1", maxFailures: 5) }
            #expect(race.granted == [1, 2, 3, 4, 5] && race.refused == 15, "\(race)")
            try await store.releasePasskeyAttempt(credentialID: "cred-1")
            #expect(try await other.reservePasskeyAttempt(credentialID: "cred-1", maxFailures: 5) == 5, "a release gave one back")
            let locks = try await withThrowingTaskGroup(of: Bool.self) { group in
                for writer in [store, other, store, other] { group.addTask { try await writer.lockPasskey(credentialID: "cred-1", at: now) } }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(locks == 1, "locked once")
            #expect(try await store.passkey(credentialID: "cred-1")?.lockedAt == now)
            #expect(try await store.reservePasskeyAttempt(credentialID: "cred-1", maxFailures: 50) == nil, "locked: no reservation")
            #expect(
                try await store.recordPasskeyUse(
                    credentialID: "cred-1", expectedSignCount: 0, signCount: 1, backupState: false, uvInitialized: true, at: now)
                    == false, "locked: no use")

            // A verified use settles: the failures start over.
            try await store.insertPasskey(PasskeyStoreTests.passkey("cred-2", user: "u1", at: now))
            #expect(try await store.reservePasskeyAttempt(credentialID: "cred-2", maxFailures: 5) == 1)
            #expect(
                try await store.recordPasskeyUse(
                    credentialID: "cred-2", expectedSignCount: 0, signCount: 1, backupState: false, uvInitialized: true, at: now))
            #expect(try await store.passkey(credentialID: "cred-2")?.failures == 0)
            try await other.close()
        }
    }

    @Test("verification code: 20 reservations get 1…5 once each, with the code; none after it is consumed", arguments: StoreBackend.available)
    func verificationCode(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let other = try await sandbox.open()
            let now = StoreSamples.now()
            try await store.saveVerificationCode(
                VerificationCodeRecord(
                    userID: "u1", purpose: "password_reset", codeDigest: "d1", target: "a@example.com", createdAt: now,
                    expiresAt: now.addingTimeInterval(600)))
            let race = try await Self.reserve(store, other) {
                try await $0.reserveVerificationAttempt(userID: "u1", purpose: "password_reset", maxAttempts: 5, now: now)?.attempts
            }
            #expect(race.granted == [1, 2, 3, 4, 5] && race.refused == 15, "\(race)")

            try await store.saveVerificationCode(
                VerificationCodeRecord(
                    userID: "u1", purpose: "email_change", codeDigest: "d2", target: "b@example.com", createdAt: now,
                    expiresAt: now.addingTimeInterval(600)))
            let reserved = try await store.reserveVerificationAttempt(userID: "u1", purpose: "email_change", maxAttempts: 5, now: now)
            #expect(reserved?.codeDigest == "d2" && reserved?.target == "b@example.com" && reserved?.attempts == 1)
            #expect(try await other.consumeVerificationCode(userID: "u1", purpose: "email_change", codeDigest: "d2"))
            #expect(try await store.reserveVerificationAttempt(userID: "u1", purpose: "email_change", maxAttempts: 5, now: now) == nil)
            try await other.close()
        }
    }

    @Test("MFA: auth session and enrolment get 1…5 once each; a discarded enrolment is not confirmed; at most 5 codes are recorded", arguments: StoreBackend.available)
    func mfa(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let other = try await sandbox.open()
            let now = Date()
            try await store.insertAuthSession(MFAStoreTests.session("s1"))
            let session = try await Self.reserve(store, other) { try await $0.reserveAuthSessionAttempt(digest: "s1", maxAttempts: 5) }
            #expect(session.granted == [1, 2, 3, 4, 5] && session.refused == 15, "\(session)")

            try await store.saveMFAEnrollment(
                MFAEnrollmentRecord(userID: "u1", method: .sms, confirmed: false, phoneNumber: "+4712345678", codeDigest: "d", createdAt: now))
            let enrolment = try await Self.reserve(store, other) {
                try await $0.reserveEnrollmentAttempt(userID: "u1", method: .sms, maxAttempts: 5)
            }
            #expect(enrolment.granted == [1, 2, 3, 4, 5] && enrolment.refused == 15, "\(enrolment)")
            #expect(try await store.removePendingMFAEnrollment(userID: "u1", method: .sms))
            #expect(try await other.confirmMFAEnrollment(userID: "u1", method: .sms, at: now) == false, "discarded meanwhile")
            try await store.saveMFAEnrollment(MFAEnrollmentRecord(userID: "u1", method: .totp, confirmed: true, createdAt: now))
            #expect(try await store.removePendingMFAEnrollment(userID: "u1", method: .totp) == false, "a confirmed one stays")

            try await store.insertAuthSession(MFAStoreTests.session("s2"))
            let sends = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    let writer = index % 2 == 0 ? store : other
                    group.addTask {
                        try await writer.recordAuthSessionDelivery(
                            digest: "s2", method: .email, codeDigest: "c\(index)", codeExpiresAt: now, expiresAt: now.addingTimeInterval(300),
                            maxCodes: 5)
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(sends == 5)
            #expect(try await store.authSession(digest: "s2")?.codesSent == 5)
            try await other.close()
        }
    }
}
