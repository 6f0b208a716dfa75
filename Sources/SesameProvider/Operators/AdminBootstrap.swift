import Foundation
import SesameProtocol
import SesameStore

/// The first administrator of a new deployment (issue #47: "`sesame serve` can print a one-time
/// bootstrap link when no admin exists"). While no user holds an operator role, `sesame serve`
/// prints a one-time code; whoever signs in to `/admin/bootstrap` (a second factor, as every
/// console sign-in) and types it becomes `admin`. The code never travels in a URL: the link is
/// plain, the code is typed into a form, as Jenkins' and Keycloak's first-start secrets are.
///
/// - 20 characters of a 32-letter alphabet without look-alikes (100 bits), shown as four groups;
///   stored only as a digest (``SecretDigest``), for an hour, one use, 5 wrong answers;
/// - a newer start replaces it (the last code printed is the one that works);
/// - once anyone holds a role the code is refused, and operators grant roles instead.
package struct AdminBootstrap: Sendable {
    package let store: any ProviderStore
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    /// Where the code is kept: the verification-code table, under a holder that is no user.
    static let holder = "sesame:admin-bootstrap"
    static let purpose = "admin_bootstrap"
    package static let lifetime: TimeInterval = 3_600
    package static let maximumAttempts = 5
    private static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    package init(store: any ProviderStore, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.audit = audit
        self.now = now
    }

    /// A new code when no one holds an operator role (`nil` otherwise), replacing any earlier one.
    package func issue() async throws -> String? {
        guard try await store.adminRoles().isEmpty else { return nil }
        // 256 is a multiple of 32: every letter is equally likely.
        let letters = SecureRandom.bytes(20).map { Self.alphabet[Int($0 & 31)] }
        let code = stride(from: 0, to: 20, by: 5).map { String(letters[$0..<$0 + 5]) }.joined(separator: "-")
        let at = now()
        try await store.saveVerificationCode(
            VerificationCodeRecord(
                userID: Self.holder, purpose: Self.purpose, codeDigest: SecretDigest.of(Self.normalized(code)), target: "",
                createdAt: at, expiresAt: at.addingTimeInterval(Self.lifetime)))
        return code
    }

    /// Makes `userID` the first administrator when `code` is the current one. Of answers sent
    /// at once, on any number of processes, at most ``maximumAttempts`` are compared and one wins.
    package func redeem(_ code: String, userID: String, origin: RequestOrigin?) async throws -> AdminRole {
        guard try await store.adminRoles().isEmpty else {
            throw ProviderFailure(.invalidRequest, "An administrator exists already; ask them for a role.")
        }
        let typed = Self.normalized(code)
        guard typed.count == 20, typed.allSatisfy({ Self.alphabet.contains($0) }) else {
            throw ProviderFailure(.invalidVerificationCode, "That is not a bootstrap code: 20 letters and digits, as sesame serve printed them.")
        }
        guard
            let stored = try await store.reserveVerificationAttempt(
                userID: Self.holder, purpose: Self.purpose, maxAttempts: Self.maximumAttempts, now: now())
        else {
            throw ProviderFailure(
                .invalidVerificationCode,
                "No bootstrap code is valid (used, expired or too many wrong answers); restart sesame serve for a new one, or run sesame user role <username> admin on the server.")
        }
        guard SecretDigest.matches(typed, digest: stored.codeDigest),
            try await store.consumeVerificationCode(userID: Self.holder, purpose: Self.purpose, codeDigest: stored.codeDigest)
        else {
            audit.record(.adminRefused, reason: "bootstrap_code_wrong", origin: origin, userID: userID)
            var failure = ProviderFailure(.invalidVerificationCode, "The bootstrap code is wrong; check it and try again.")
            failure.remainingAttempts = max(0, Self.maximumAttempts - stored.attempts)
            throw failure
        }
        try await store.setAdminRole(.admin, userID: userID, grantedBy: "bootstrap", at: now())
        audit.record(.roleChanged, origin: origin, userID: userID, detail: ["via": "bootstrap", "new_role": AdminRole.admin.rawValue])
        return .admin
    }

    /// Upper case without separators or spaces, as people type codes.
    static func normalized(_ code: String) -> String {
        String(code.uppercased().filter { $0 != "-" && $0 != " " }.prefix(64))
    }
}
