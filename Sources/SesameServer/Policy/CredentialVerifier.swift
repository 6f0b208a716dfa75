import Foundation
import NIOPosix
import SesameProtocol
import Synchronization

/// Checks passwords and client secrets against their PHC hashes without blocking an event
/// loop: memory-hard hashing (tens of milliseconds) runs on the NIO thread pool.
///
/// - Unknown users still cost one verification against a fixed dummy hash, so response time
///   does not reveal which usernames exist (OWASP authentication cheat sheet).
/// - Client secrets are random ≥ 256-bit values; after one successful PHC verification the
///   pair (SHA-256 of the secret, stored PHC hash) is remembered in memory, so the token
///   endpoint's hot path (refresh, client_credentials) does not pay for scrypt on every call.
///   A changed secret hash in the store invalidates the entry.
final class CredentialVerifier: Sendable {
    private let hasher: any PasswordHasher
    private let dummyHash: String
    private let verifiedSecrets = Mutex<[String: VerifiedSecret]>([:])
    private static let cacheLimit = 4096

    private struct VerifiedSecret {
        var secretDigest: String
        var phc: String
    }

    init(hasher: any PasswordHasher) throws {
        self.hasher = hasher
        self.dummyHash = try hasher.hash(SecureRandom.token())
    }

    /// `true` when `password` matches the user's password hash. Always does one hash
    /// verification, even when `user` is `nil` or has no password.
    func verifyPassword(_ password: String, for user: UserRecord?) async -> Bool {
        let phc = user?.passwordHash
        let hasher = self.hasher
        let dummy = self.dummyHash
        let result = try? await NIOThreadPool.singleton.runIfActive {
            let matches = hasher.verify(password, against: phc ?? dummy)
            return matches && phc != nil
        }
        return result ?? false
    }

    /// A PHC hash of a new password, computed on the thread pool (account self-service).
    func hashPassword(_ password: String) async throws -> String {
        let hasher = self.hasher
        return try await NIOThreadPool.singleton.runIfActive { try hasher.hash(password) }
    }

    /// `true` when `secret` is the client's secret.
    func verifyClientSecret(_ secret: String, for client: ClientRecord) async -> Bool {
        guard let phc = client.secretHash else { return false }
        let digest = SecretDigest.of(secret)
        let cached = verifiedSecrets.withLock { $0[client.clientID] }
        if let cached, cached.phc == phc {
            return ConstantTime.equals(cached.secretDigest, digest)
        }
        let hasher = self.hasher
        let matches = (try? await NIOThreadPool.singleton.runIfActive { hasher.verify(secret, against: phc) }) ?? false
        if matches {
            verifiedSecrets.withLock { cache in
                if cache.count >= Self.cacheLimit { cache.removeAll() }
                cache[client.clientID] = VerifiedSecret(secretDigest: digest, phc: phc)
            }
        }
        return matches
    }
}
