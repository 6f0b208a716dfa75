import Foundation
import SesameStore
import Synchronization
import Testing

@testable import SesameProvider

/// ``CredentialVerifier/verifyClientSecret(_:for:)``: one memory-hard verification per client and
/// secret however many requests bring it at once (issue #50: a burst of `client_credentials`
/// after a start ran 32 scrypts of 32 MiB each, 77 MB of peak memory), and wrong secrets
/// never remembered.
@Suite struct ClientSecretVerificationTests {
    /// A scrypt hasher (cheap parameters) that counts its verifications.
    final class CountingHasher: PasswordHasher {
        let base = ScryptPasswordHasher(logN: 10)
        let verifications = Mutex(0)
        func hash(_ password: String) throws -> String { try base.hash(password) }
        func verify(_ password: String, against phc: String) -> Bool {
            verifications.withLock { $0 += 1 }
            return base.verify(password, against: phc)
        }
        func needsRehash(_ phc: String) -> Bool { false }
    }

    /// Runs the work after letting every other waiting task run for a while, so that the
    /// requests of one burst all arrive while the first verification is still running.
    struct YieldingPool: BlockingWorkPool {
        func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
            for _ in 0..<200 { await Task.yield() }
            return try work()
        }
    }

    let hasher = CountingHasher()

    func verifier() throws -> CredentialVerifier {
        try CredentialVerifier(hasher: hasher, pool: YieldingPool())
    }

    func client(secret: String) throws -> ClientRecord {
        ClientRecord(
            clientID: "backend", name: "Backend", secretHash: try hasher.hash(secret), grantTypes: [.clientCredentials],
            tokenEndpointAuthMethod: .clientSecretBasic)
    }

    @Test func aBurstOfTheRightSecretCostsOneVerification() async throws {
        let verifier = try verifier()
        let client = try client(secret: "right-secret")
        let before = hasher.verifications.withLock { $0 }
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { await verifier.verifyClientSecret("right-secret", for: client) } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 20))
        #expect(hasher.verifications.withLock { $0 } - before == 1)
        // Remembered afterwards: no verification at all.
        #expect(await verifier.verifyClientSecret("right-secret", for: client))
        #expect(hasher.verifications.withLock { $0 } - before == 1)
    }

    @Test func aBurstOfOneWrongSecretIsRefusedEveryTimeAndNotRemembered() async throws {
        let verifier = try verifier()
        let client = try client(secret: "right-secret")
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { await verifier.verifyClientSecret("wrong-secret", for: client) } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: false, count: 20))
        let before = hasher.verifications.withLock { $0 }
        // A later try is verified again (a refusal is never cached), and still refused.
        #expect(await !verifier.verifyClientSecret("wrong-secret", for: client))
        #expect(hasher.verifications.withLock { $0 } - before == 1)
        // The right secret, sent while wrong ones were in flight, is not refused because of them.
        #expect(await verifier.verifyClientSecret("right-secret", for: client))
    }

    @Test func aChangedSecretHashIsVerifiedAgain() async throws {
        let verifier = try verifier()
        let old = try client(secret: "old-secret")
        #expect(await verifier.verifyClientSecret("old-secret", for: old))
        let rotated = try client(secret: "new-secret")
        #expect(await !verifier.verifyClientSecret("old-secret", for: rotated))
        #expect(await verifier.verifyClientSecret("new-secret", for: rotated))
    }

    /// A secret the server generated (``GeneratedClientSecret``) is stored as its SHA-256 and
    /// checked without the memory-hard hasher: the right one passes, a wrong one, an edited
    /// one and the stored value itself (a leaked database row) do not.
    @Test func aGeneratedSecretIsCheckedWithoutScrypt() async throws {
        let verifier = try verifier()
        let (secret, storedHash) = GeneratedClientSecret.make()
        #expect(storedHash.hasPrefix("$sha256$") && !storedHash.contains(secret))
        #expect(secret.count == 43)
        let client = ClientRecord(
            clientID: "backend", name: "Backend", secretHash: storedHash, grantTypes: [.clientCredentials],
            tokenEndpointAuthMethod: .clientSecretBasic)
        let before = hasher.verifications.withLock { $0 }
        #expect(await verifier.verifyClientSecret(secret, for: client))
        #expect(await !verifier.verifyClientSecret(String(secret.dropLast()) + (secret.hasSuffix("A") ? "B" : "A"), for: client))
        #expect(await !verifier.verifyClientSecret("", for: client))
        #expect(await !verifier.verifyClientSecret(storedHash, for: client))
        #expect(await !verifier.verifyClientSecret(String(storedHash.dropFirst(GeneratedClientSecret.prefix.count)), for: client))
        #expect(hasher.verifications.withLock { $0 } == before)
        // A PHC hash of a chosen secret (a seed file, or a secret generated before this format)
        // is still verified with the hasher.
        let legacy = try self.client(secret: secret)
        #expect(await verifier.verifyClientSecret(secret, for: legacy))
        #expect(hasher.verifications.withLock { $0 } - before == 1)
    }
}
