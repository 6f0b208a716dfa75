import Foundation
import SQLKit
import SesameProtocol

// MFA enrolments, auth sessions and re-authentication markers (``MFAStore``, docs/first-party-and-accounts.md).
// Attempt limits are reserved by one conditional UPDATE … RETURNING (``reserveAttempt(in:column:maxAttempts:where:)``);
// TOTP replay protection and session consumption are single conditional UPDATEs plus a
// primary-key read ("claim" technique, see `redeemAuthorizationCode`).
extension SQLIdentityStore: MFAStore {
    // MARK: Enrolments

    public func mfaEnrollments(userID: String) async throws -> [MFAEnrollmentRecord] {
        // A template: every authorization request of a signed-in user reads it.
        try await selectAll(from: "mfa_enrollments", where: "user_id", equals: userID)
            .all()
            .compactMap(Self.enrollmentRecord)
            .sorted { $0.method.rawValue < $1.method.rawValue }
    }

    public func saveMFAEnrollment(_ enrollment: MFAEnrollmentRecord) async throws {
        let columns = [
            "user_id", "method", "confirmed", "sealed_secret", "phone_number", "code_digest",
            "code_expires_at", "attempts", "attempt_claim", "last_used_step", "step_claim",
            "created_at", "confirmed_at",
        ]
        let values: [any Encodable & Sendable] = [
            enrollment.userID, enrollment.method.rawValue, enrollment.confirmed,
            enrollment.sealedSecret, enrollment.phoneNumber, enrollment.codeDigest,
            StoreValue.time(enrollment.codeExpiresAt), enrollment.attempts, String?.none,
            Int64?.none, String?.none, StoreValue.time(enrollment.createdAt),
            StoreValue.time(enrollment.confirmedAt),
        ]
        try await database.insert(into: "mfa_enrollments")
            .columns(columns)
            .values(values)
            .onConflict(with: ["user_id", "method"]) { update in
                var update = update
                for column in columns where column != "user_id" && column != "method" {
                    update = update.set(excludedValueOf: column)
                }
                return update
            }
            .run()
    }

    @discardableResult
    public func removeMFAEnrollment(userID: String, method: MFAMethod) async throws -> Bool {
        guard try await enrollmentRow(userID: userID, method: method) != nil else { return false }
        try await database.delete(from: "mfa_enrollments")
            .where("user_id", .equal, userID)
            .where("method", .equal, method.rawValue)
            .run()
        return true
    }

    public func reserveEnrollmentAttempt(userID: String, method: MFAMethod, maxAttempts: Int) async throws -> Int? {
        try await reserveAttempt(in: "mfa_enrollments", maxAttempts: maxAttempts) {
            $0.where("user_id", .equal, userID).where("method", .equal, method.rawValue)
                .where("confirmed", .equal, false)
        }
    }

    @discardableResult
    public func confirmMFAEnrollment(userID: String, method: MFAMethod, at date: Date) async throws -> Bool {
        try await database.update("mfa_enrollments")
            .set("confirmed", to: true)
            .set("confirmed_at", to: StoreValue.time(date))
            .set("code_digest", to: SQLLiteral.null)
            .set("code_expires_at", to: SQLLiteral.null)
            .set("attempts", to: 0)
            .where("user_id", .equal, userID)
            .where("method", .equal, method.rawValue)
            .where("confirmed", .equal, false)
            .returning("user_id")
            .first() != nil
    }

    @discardableResult
    public func removePendingMFAEnrollment(userID: String, method: MFAMethod) async throws -> Bool {
        try await database.delete(from: "mfa_enrollments")
            .where("user_id", .equal, userID)
            .where("method", .equal, method.rawValue)
            .where("confirmed", .equal, false)
            .returning("user_id")
            .first() != nil
    }

    public func useTOTPStep(userID: String, step: Int64) async throws -> Bool {
        let claim = SecureRandom.uuid()
        try await database.update("mfa_enrollments")
            .set("last_used_step", to: step)
            .set("step_claim", to: claim)
            .where("user_id", .equal, userID)
            .where("method", .equal, MFAMethod.totp.rawValue)
            .where(group: { $0.where("last_used_step", .is, SQLLiteral.null).orWhere("last_used_step", .lessThan, step) })
            .run()
        let row = try await enrollmentRow(userID: userID, method: .totp)
        return try row?.optionalString("step_claim") == claim
    }

    // MARK: Auth sessions

    public func insertAuthSession(_ session: AuthSessionRecord) async throws {
        try await database.insert(into: "mfa_auth_sessions")
            .columns(
                "session_digest", "client_id", "user_id", "scope", "code_challenge", "redirect_uri",
                "nonce", "methods", "first_factor", "reauthentication", "ui_locales", "chosen_method",
                "code_digest", "code_expires_at", "codes_sent", "attempts", "created_at", "expires_at"
            )
            .values(
                session.sessionDigest, session.clientID, session.userID, session.scope,
                StoredCodeChallenge.column(session.codeChallenge), session.redirectURI, session.nonce,
                try StoreValue.json(session.methods.map(\.rawValue)), try StoreValue.json(session.firstFactor),
                session.reauthentication, session.uiLocales, session.chosenMethod?.rawValue,
                session.codeDigest, StoreValue.time(session.codeExpiresAt), session.codesSent,
                session.attempts, StoreValue.time(session.createdAt), StoreValue.time(session.expiresAt)
            )
            .run()
    }

    public func authSession(digest: String) async throws -> AuthSessionRecord? {
        try await database.select().column("*").from("mfa_auth_sessions")
            .where("session_digest", .equal, digest)
            .first()
            .map(Self.authSessionRecord)
    }

    public func recordAuthSessionDelivery(
        digest: String, method: MFAMethod, codeDigest: String?, codeExpiresAt: Date?, expiresAt: Date, maxCodes: Int
    ) async throws -> Bool {
        // A code counts against `maxCodes` in the same conditional statement that records it,
        // before it is sent: parallel requests cannot send more.
        let update = database.update("mfa_auth_sessions")
            .set("chosen_method", to: method.rawValue)
            .set("code_digest", to: codeDigest)
            .set("code_expires_at", to: StoreValue.time(codeExpiresAt))
            .set("codes_sent", to: SQLBinaryExpression(SQLColumn("codes_sent"), .add, SQLLiteral.numeric(codeDigest == nil ? "0" : "1")))
            .set("expires_at", to: StoreValue.time(expiresAt))
            .where("session_digest", .equal, digest)
        if codeDigest != nil { update.where("codes_sent", .lessThan, maxCodes) }
        return try await update.returning("session_digest").first() != nil
    }

    public func reserveAuthSessionAttempt(digest: String, maxAttempts: Int) async throws -> Int? {
        try await reserveAttempt(in: "mfa_auth_sessions", maxAttempts: maxAttempts) {
            $0.where("session_digest", .equal, digest)
        }
    }

    public func consumeAuthSession(digest: String, now: Date) async throws -> Bool {
        let claim = SecureRandom.uuid()
        try await database.update("mfa_auth_sessions")
            .set("consumed_claim", to: claim)
            .where("session_digest", .equal, digest)
            .where("consumed_claim", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, StoreValue.time(now))
            .run()
        let won =
            try await database.select().column("consumed_claim").from("mfa_auth_sessions")
            .where("session_digest", .equal, digest)
            .first()?
            .optionalString("consumed_claim") == claim
        if won { try await removeAuthSession(digest: digest) }
        return won
    }

    public func removeAuthSession(digest: String) async throws {
        try await database.delete(from: "mfa_auth_sessions").where("session_digest", .equal, digest).run()
    }

    // MARK: Re-authentication codes

    public func markReauthenticationCode(digest: String, expiresAt: Date) async throws {
        try await database.insert(into: "reauthentication_codes")
            .columns("code_digest", "expires_at")
            .values(digest, StoreValue.time(expiresAt))
            .ignoringConflicts(with: "code_digest")
            .run()
    }

    public func isReauthenticationCode(digest: String) async throws -> Bool {
        try await database.select().column("code_digest").from("reauthentication_codes")
            .where("code_digest", .equal, digest)
            .first() != nil
    }

    // MARK: Maintenance

    public func removeMFAData(userID: String) async throws {
        try await database.delete(from: "mfa_enrollments").where("user_id", .equal, userID).run()
        try await database.delete(from: "mfa_auth_sessions").where("user_id", .equal, userID).run()
    }

    public func purgeExpiredMFAData(now: Date) async throws {
        let cutoff = StoreValue.time(now)
        for table in ["mfa_auth_sessions", "reauthentication_codes"] {
            try await database.delete(from: table).where("expires_at", .lessThanOrEqual, cutoff).run()
        }
    }

    // MARK: Helpers

    private func enrollmentRow(userID: String, method: MFAMethod) async throws -> (any SQLRow)? {
        try await database.select().column("*").from("mfa_enrollments")
            .where("user_id", .equal, userID)
            .where("method", .equal, method.rawValue)
            .first()
    }

    /// `nil` for a method this version does not know (a newer server wrote it).
    static func enrollmentRecord(_ row: any SQLRow) throws -> MFAEnrollmentRecord? {
        guard let method = MFAMethod(rawValue: try row.string("method")) else { return nil }
        return MFAEnrollmentRecord(
            userID: try row.string("user_id"),
            method: method,
            confirmed: try row.decode(column: "confirmed", as: Bool.self),
            sealedSecret: try row.optionalString("sealed_secret"),
            phoneNumber: try row.optionalString("phone_number"),
            codeDigest: try row.optionalString("code_digest"),
            codeExpiresAt: try row.optionalDate("code_expires_at"),
            attempts: try row.decode(column: "attempts", as: Int.self),
            createdAt: try row.date("created_at"),
            confirmedAt: try row.optionalDate("confirmed_at"))
    }

    static func authSessionRecord(_ row: any SQLRow) throws -> AuthSessionRecord {
        AuthSessionRecord(
            sessionDigest: try row.string("session_digest"),
            clientID: try row.string("client_id"),
            userID: try row.string("user_id"),
            scope: try row.string("scope"),
            codeChallenge: StoredCodeChallenge.challenge(try row.string("code_challenge")),
            redirectURI: try row.string("redirect_uri"),
            nonce: try row.optionalString("nonce"),
            methods: try row.json("methods", as: [String].self).compactMap(MFAMethod.init(rawValue:)),
            firstFactor: try row.json("first_factor", as: [String].self),
            reauthentication: try row.decode(column: "reauthentication", as: Bool.self),
            uiLocales: try row.optionalString("ui_locales"),
            chosenMethod: try row.optionalString("chosen_method").flatMap(MFAMethod.init(rawValue:)),
            codeDigest: try row.optionalString("code_digest"),
            codeExpiresAt: try row.optionalDate("code_expires_at"),
            codesSent: try row.decode(column: "codes_sent", as: Int.self),
            attempts: try row.decode(column: "attempts", as: Int.self),
            createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"))
    }
}
