import Foundation
import SesameProtocol
import SesameStore

/// Checks passwords and client secrets against their PHC hashes without blocking an event
/// task: memory-hard hashing (tens of milliseconds) runs on a ``BlockingWorkPool``.
///
/// - Every password check goes through ``checkPassword(_:attempt:user:)``, which asks the
///   ``LoginThrottle`` before hashing: a throttled attempt is refused without any.
/// - Unknown users still cost one memory-hard hash (of the typed password, with a fresh salt:
///   the work of a verification, with no dummy hash to make at start), so response time does
///   not reveal which usernames exist (OWASP authentication cheat sheet).
/// - A right password whose hash is weaker than the hasher's cost is hashed again and stored
///   (compare-and-set: a password changed meanwhile wins), so raising the cost reaches every
///   account that signs in. A lower cost never weakens a stored hash.
/// - Client secrets the server generated are stored as their SHA-256
///   (``GeneratedClientSecret``) and checked with one hash, on the calling task. A secret an
///   operator chose (a seed file) has a PHC hash: after one successful verification the pair
///   (SHA-256 of the secret, stored PHC hash) is remembered in memory, so the token
///   endpoint's hot path (refresh, client_credentials) does not pay for scrypt on every call.
///   A changed secret hash in the store invalidates the entry. Requests that arrive with the
///   same secret while it is being verified wait for that one verification: a burst of 32
///   `client_credentials` requests after a start costs one scrypt (32 MiB, tens of
///   milliseconds), not 32.
final package class CredentialVerifier: Sendable {
    /// Limits password guessing per login name and client address.
    package let throttle: LoginThrottle
    /// The counters every process of the deployment shares (the store), counted before each
    /// check; `nil`: this process's memory only.
    package let shared: SharedLoginThrottle?
    private let hasher: any PasswordHasher
    private let pool: any BlockingWorkPool
    /// Where a password hash weaker than ``hasher`` makes is replaced after a right password
    /// (``IdentityStore/replacePasswordHash(userID:_:with:)``); `nil`: hashes stay as they are.
    private let rehashStore: (any IdentityStore)?
    private let verifiedSecrets = LockedState<[String: VerifiedSecret]>([:])
    /// Client-secret verifications running now, by client, secret digest and stored hash.
    private let runningSecretChecks = LockedState<[String: Task<Bool, Never>]>([:])
    private static let cacheLimit = 4096

    private struct VerifiedSecret {
        var secretDigest: String
        var phc: String
    }

    package init(
        hasher: any PasswordHasher, pool: any BlockingWorkPool, throttle: LoginThrottle = LoginThrottle(),
        sharedThrottle: (any ThrottleStore)? = nil, rehashStore: (any IdentityStore)? = nil
    ) throws {
        self.hasher = hasher
        self.pool = pool
        self.rehashStore = rehashStore
        self.throttle = throttle
        self.shared = sharedThrottle.map { SharedLoginThrottle(store: $0, policy: throttle.policy, now: throttle.now) }
    }

    /// The result of ``checkPassword(_:attempt:user:)``.
    package enum PasswordCheck: Sendable {
        /// The password is the user's.
        case accepted(UserRecord)
        /// Wrong password, unknown user or a user without a password: the same answer.
        case rejected
        /// Too many failures for this login name or address: the password was not checked.
        case throttled(retryAfter: Int)
        /// The password is right, but an administrator disabled the account (issue #47): no
        /// sign-in. Said only after a right password, so it reveals nothing to a guesser.
        case disabled(UserRecord)

    }

    /// Checks a password typed for `attempt`: looks the user up with `user`, asks the
    /// ``LoginThrottle`` (per account when the name is one, whatever form of it was typed; per
    /// typed name otherwise) and the shared counters (``SharedLoginThrottle``, which count the
    /// attempt before it is checked) — refused → no hashing —, verifies the password with
    /// constant work, and reports the outcome to both.
    package func checkPassword(
        _ password: String, attempt: LoginAttempt, user lookup: () async throws -> UserRecord?
    ) async throws -> PasswordCheck {
        let user = try await lookup()
        let subject = user.map { LoginThrottle.accountKey($0.id) } ?? LoginThrottle.loginKey(attempt.login)
        var admission = throttle.admit(subject, address: attempt.address)
        // With shared counters, they decide: a lock this process remembers but the store no
        // longer holds (cleared by an administrator) is forgotten.
        if case .refused = admission, let shared {
            let keys = LoginThrottle.keys(subject, address: attempt.address)
            if try await !shared.isLocked(keys) {
                throttle.forget(keys)
                admission = throttle.admit(subject, address: attempt.address)
            }
        }
        let ticket: LoginThrottle.Ticket
        switch admission {
        case .refused(let retryAfter): return .throttled(retryAfter: retryAfter)
        case .admitted(let admitted): ticket = admitted
        }
        var reservation: SharedLoginThrottle.Reservation?
        if let shared {
            do {
                switch try await shared.reserve(ticket) {
                case .refused(let retryAfter):
                    throttle.finish(ticket, .abandoned)
                    return .throttled(retryAfter: retryAfter)
                case .admitted(let admitted):
                    reservation = admitted
                }
            } catch {
                throttle.finish(ticket, .abandoned)
                throw error
            }
        }
        let verified = await verifyPassword(password, for: user)
        if verified.matches, var user {
            throttle.finish(ticket, .succeeded)
            if let reservation { try await shared?.settle(reservation, succeeded: true) }
            if let stronger = verified.stronger, let old = user.passwordHash, let rehashStore {
                // The sign-in stands if the store refuses: the old hash still verifies, and the
                // next sign-in tries again.
                if (try? await rehashStore.replacePasswordHash(userID: user.id, old, with: stronger)) != nil {
                    user.passwordHash = stronger
                }
            }
            return user.isDisabled ? .disabled(user) : .accepted(user)
        }
        throttle.finish(ticket, .failed)
        if let reservation { try await shared?.settle(reservation, succeeded: false) }
        return .rejected
    }

    /// Whether `password` matches the user's password hash. Always does one memory-hard hash,
    /// even when `user` is `nil` or has no password (then of the typed password, whose result
    /// is thrown away). A right password whose stored hash is weaker than the hasher's cost
    /// (`sesame serve --scrypt-cost` raised since it was set) is hashed again, as Keycloak does
    /// when its password policy changes: `stronger` is the new hash. Not throttled: endpoints use
    /// ``checkPassword(_:attempt:user:)``.
    private func verifyPassword(_ password: String, for user: UserRecord?) async -> (matches: Bool, stronger: String?) {
        let phc = user?.passwordHash
        let hasher = self.hasher
        let rehash = rehashStore != nil
        let result = try? await pool.run { () -> (matches: Bool, stronger: String?) in
            guard let phc else {
                _ = try? hasher.hash(password)
                return (false, nil)
            }
            guard hasher.verify(password, against: phc) else { return (false, nil) }
            return (true, rehash && hasher.needsRehash(phc) ? try? hasher.hash(password) : nil)
        }
        return result ?? (false, nil)
    }

    /// A PHC hash of a new password, computed on the thread pool (account self-service).
    package func hashPassword(_ password: String) async throws -> String {
        let hasher = self.hasher
        return try await pool.run { try hasher.hash(password) }
    }

    /// `true` when `secret` is the client's secret.
    package func verifyClientSecret(_ secret: String, for client: ClientRecord) async -> Bool {
        guard let phc = client.secretHash else { return false }
        let digest = SecretDigest.of(secret)
        if GeneratedClientSecret.isStored(phc) {
            return GeneratedClientSecret.matches(digest: digest, storedHash: phc)
        }
        let cached = verifiedSecrets.withLock { $0[client.clientID] }
        if let cached, cached.phc == phc {
            return ConstantTime.equals(cached.secretDigest, digest)
        }
        let hasher = self.hasher
        let pool = self.pool
        let key = [client.clientID, digest, phc].joined(separator: " ")
        let check = runningSecretChecks.withLock { running in
            if let check = running[key] { return check }
            let check = Task { (try? await pool.run { hasher.verify(secret, against: phc) }) ?? false }
            running[key] = check
            return check
        }
        let matches = await check.value
        runningSecretChecks.withLock { running in
            if running[key] == check { running[key] = nil }
        }
        if matches {
            verifiedSecrets.withLock { cache in
                if cache.count >= Self.cacheLimit { cache.removeAll() }
                cache[client.clientID] = VerifiedSecret(secretDigest: digest, phc: phc)
            }
        }
        return matches
    }
}

/// Who is typing a password, as ``LoginThrottle`` counts it: the login name as sent and the
/// client's address (the TCP peer; `X-Forwarded-For` only from a trusted proxy).
package struct LoginAttempt: Sendable {
    package var login: String
    package var address: String?

    package init(login: String, address: String?) {
        self.login = login
        self.address = address
    }

    /// A sign-in with the name the user typed.
    package init(login: String, origin: RequestOrigin) {
        self.init(login: login, address: origin.clientAddress)
    }

    /// A signed-in user confirming their password (password change, account deletion): counted
    /// under the account's username, so these guesses share the sign-in limit of that name.
    package init(account user: UserRecord, origin: RequestOrigin) {
        self.init(login: user.username, origin: origin)
    }
}

extension CredentialVerifier.PasswordCheck {
    /// Records the outcome of a sign-in's password check in the audit log: `sign_in.succeeded`
    /// (the password step; a second factor may follow), `sign_in.failed` (reason
    /// `invalid_credentials` or `account_disabled`) or `sign_in.throttled`.
    package func record(in audit: AuditLog, origin: RequestOrigin, clientID: String?) {
        switch self {
        case .accepted(let user):
            audit.record(.signInSucceeded, origin: origin, clientID: clientID, userID: user.id, detail: ["factor": "pwd"])
        case .rejected:
            audit.record(.signInFailed, reason: "invalid_credentials", origin: origin, clientID: clientID)
        case .throttled(let retryAfter):
            audit.record(
                .signInThrottled, reason: "too_many_failures", origin: origin, clientID: clientID,
                detail: ["retry_after_s": "\(retryAfter)"])
        case .disabled(let user):
            audit.record(.signInFailed, reason: "account_disabled", origin: origin, clientID: clientID, userID: user.id)
        }
    }
}
