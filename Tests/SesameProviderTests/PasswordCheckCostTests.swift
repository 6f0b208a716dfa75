import Foundation
import SesameStore
import StoreTesting
import Synchronization
import Testing

@testable import SesameProvider

/// ``CredentialVerifier/checkPassword(_:attempt:user:)`` does one memory-hard operation whatever
/// the name typed (OWASP Authentication Cheat Sheet, "Authentication Responses"): a verification
/// for a user with a password, a hash of the typed password otherwise, so the answer's time
/// does not tell a guesser which names exist; and none before the first check (issue #50: the
/// dummy hash made at start cost `sesame serve` a scrypt it may never need).
@Suite struct PasswordCheckCostTests {
    final class CountingHasher: PasswordHasher {
        let base = ScryptPasswordHasher(logN: 10)
        let hashes = Mutex(0)
        let verifications = Mutex(0)
        func hash(_ password: String) throws -> String {
            hashes.withLock { $0 += 1 }
            return try base.hash(password)
        }
        func verify(_ password: String, against phc: String) -> Bool {
            verifications.withLock { $0 += 1 }
            return base.verify(password, against: phc)
        }
        func needsRehash(_ phc: String) -> Bool { false }
        /// [hashes, verifications]
        var counts: [Int] { [hashes.withLock { $0 }, verifications.withLock { $0 }] }
    }

    struct InlinePool: BlockingWorkPool {
        func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result { try work() }
    }

    @Test func everyCheckCostsOneMemoryHardOperationAndNoneAtStart() async throws {
        let hasher = CountingHasher()
        var alice = StoreSamples.user("alice")
        alice.passwordHash = try hasher.base.hash("correct horse")
        var passwordless = StoreSamples.user("bob")
        passwordless.passwordHash = nil
        let verifier = try CredentialVerifier(hasher: hasher, pool: InlinePool())
        #expect(hasher.counts == [0, 0], "nothing hashed before the first check")

        let attempt = LoginAttempt(login: "someone", address: "192.0.2.1")
        let user = alice
        guard case .accepted = try await verifier.checkPassword("correct horse", attempt: attempt, user: { user }) else {
            Issue.record("the right password was refused")
            return
        }
        #expect(hasher.counts == [0, 1])
        guard case .rejected = try await verifier.checkPassword("wrong", attempt: attempt, user: { user }) else {
            Issue.record("a wrong password was not refused")
            return
        }
        #expect(hasher.counts == [0, 2])
        guard case .rejected = try await verifier.checkPassword("correct horse", attempt: attempt, user: { nil }) else {
            Issue.record("an unknown name was not refused")
            return
        }
        #expect(hasher.counts == [1, 2], "an unknown name costs one hash")
        let bob = passwordless
        guard case .rejected = try await verifier.checkPassword("anything", attempt: attempt, user: { bob }) else {
            Issue.record("a user without a password was not refused")
            return
        }
        #expect(hasher.counts == [2, 2], "a user without a password costs one hash too")
    }
}
