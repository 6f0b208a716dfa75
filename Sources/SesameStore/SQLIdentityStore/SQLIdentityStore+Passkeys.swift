import Foundation
import SQLKit
import SesameProtocol

// Passkeys and WebAuthn challenges (docs/passkeys.md). A signature check is reserved before it
// runs (``reserveAttempt(in:column:maxAttempts:where:)``) and settled by the use it records.
extension SQLIdentityStore: PasskeyStore {
    public func insertPasskey(_ passkey: PasskeyRecord) async throws {
        let inserted = try await database.raw(
            """
            INSERT INTO passkeys (credential_id, user_id, public_key, sign_count, uv_initialized, backup_eligible, \
            backup_state, transports, aaguid, attestation_format, name, created_at, last_used_at) \
            VALUES (\(bind: passkey.credentialID), \(bind: passkey.userID), \(bind: Base64URL.encode(passkey.publicKey)), \
            \(bind: Int64(passkey.signCount)), \(bind: passkey.uvInitialized), \(bind: passkey.backupEligible), \
            \(bind: passkey.backupState), \(bind: try StoreValue.json(passkey.transports)), \(bind: passkey.aaguid), \
            \(bind: passkey.attestationFormat), \(bind: passkey.name), \(bind: StoreValue.time(passkey.createdAt)), \
            \(bind: StoreValue.time(passkey.lastUsedAt))) \
            ON CONFLICT (credential_id) DO NOTHING RETURNING credential_id
            """
        ).first() != nil
        guard inserted else { throw StoreError.conflict(field: "credential_id") }
    }

    public func passkey(credentialID: String) async throws -> PasskeyRecord? {
        try await database.select().column("*").from("passkeys").where("credential_id", .equal, credentialID)
            .first().map(Self.passkey)
    }

    public func passkeys(userID: String) async throws -> [PasskeyRecord] {
        // A template: every authorization request of a signed-in user reads it.
        try await statement("passkeys.by_user_id", [userID]) { slots in
            database.select().column("*").from("passkeys").where(SQLIdentifier("user_id"), .equal, slots[0])
                .orderBy("created_at").query
        }.all().map(Self.passkey)
    }

    @discardableResult
    public func renamePasskey(credentialID: String, userID: String, name: String) async throws -> Bool {
        try await database.raw(
            """
            UPDATE passkeys SET name = \(bind: name) WHERE credential_id = \(bind: credentialID) \
            AND user_id = \(bind: userID) RETURNING credential_id
            """
        ).first() != nil
    }

    @discardableResult
    public func removePasskey(credentialID: String, userID: String) async throws -> Bool {
        try await database.raw(
            "DELETE FROM passkeys WHERE credential_id = \(bind: credentialID) AND user_id = \(bind: userID) RETURNING credential_id"
        ).first() != nil
    }

    public func recordPasskeyUse(
        credentialID: String, expectedSignCount: UInt32, signCount: UInt32, backupState: Bool, uvInitialized: Bool,
        at time: Date
    ) async throws -> Bool {
        try await database.raw(
            """
            UPDATE passkeys SET sign_count = \(bind: Int64(signCount)), backup_state = \(bind: backupState), \
            uv_initialized = \(bind: uvInitialized), last_used_at = \(bind: StoreValue.time(time)), failures = 0 \
            WHERE credential_id = \(bind: credentialID) AND sign_count = \(bind: Int64(expectedSignCount)) \
            AND locked_at IS NULL RETURNING credential_id
            """
        ).first() != nil
    }

    public func reservePasskeyAttempt(credentialID: String, maxFailures: Int) async throws -> Int? {
        try await reserveAttempt(in: "passkeys", column: "failures", maxAttempts: maxFailures) {
            $0.where("credential_id", .equal, credentialID).where("locked_at", .is, SQLLiteral.null)
        }
    }

    public func releasePasskeyAttempt(credentialID: String) async throws {
        try await database.raw(
            """
            UPDATE passkeys SET failures = failures - 1 WHERE credential_id = \(bind: credentialID) \
            AND failures > 0 AND locked_at IS NULL
            """
        ).run()
    }

    public func lockPasskey(credentialID: String, at time: Date) async throws -> Bool {
        try await database.raw(
            """
            UPDATE passkeys SET locked_at = \(bind: StoreValue.time(time)) WHERE credential_id = \(bind: credentialID) \
            AND locked_at IS NULL RETURNING credential_id
            """
        ).first() != nil
    }

    public func insertWebAuthnChallenge(_ challenge: WebAuthnChallengeRecord) async throws {
        try await database.delete(from: "webauthn_challenges")
            .where("expires_at", .lessThanOrEqual, StoreValue.time(challenge.createdAt)).run()
        try await database.insert(into: "webauthn_challenges")
            .columns("challenge_digest", "purpose", "user_id", "binding", "client_id", "payload", "created_at", "expires_at")
            .values(
                SQLBind(challenge.challengeDigest), SQLBind(challenge.purpose.rawValue), SQLBind(challenge.userID),
                SQLBind(challenge.binding), SQLBind(challenge.clientID), SQLBind(challenge.payload),
                SQLBind(StoreValue.time(challenge.createdAt)), SQLBind(StoreValue.time(challenge.expiresAt)))
            .run()
    }

    public func consumeWebAuthnChallenge(digest: String, now: Date) async throws -> WebAuthnChallengeRecord? {
        // One DELETE … RETURNING: of two concurrent callers, one gets the row.
        guard
            let row = try await database.raw(
                "DELETE FROM webauthn_challenges WHERE challenge_digest = \(bind: digest) RETURNING *"
            ).first()
        else { return nil }
        let record = WebAuthnChallengeRecord(
            challengeDigest: try row.string("challenge_digest"),
            purpose: WebAuthnChallengeRecord.Purpose(rawValue: try row.string("purpose")) ?? .signIn,
            userID: try row.optionalString("user_id"), binding: try row.string("binding"),
            clientID: try row.optionalString("client_id"), payload: try row.optionalString("payload"),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
        return record.expiresAt > now ? record : nil
    }

    /// The user's passkeys and challenges go with the account.
    func removePasskeys(userID: String) async throws {
        try await database.delete(from: "passkeys").where("user_id", .equal, userID).run()
        try await database.delete(from: "webauthn_challenges").where("user_id", .equal, userID).run()
    }

    static func passkey(_ row: any SQLRow) throws -> PasskeyRecord {
        PasskeyRecord(
            credentialID: try row.string("credential_id"), userID: try row.string("user_id"),
            publicKey: Base64URL.decode(try row.string("public_key")) ?? Data(),
            signCount: UInt32(clamping: try row.decode(column: "sign_count", as: Int64.self)),
            uvInitialized: try row.decode(column: "uv_initialized", as: Bool.self),
            backupEligible: try row.decode(column: "backup_eligible", as: Bool.self),
            backupState: try row.decode(column: "backup_state", as: Bool.self),
            transports: try row.json("transports", as: [String].self), aaguid: try row.string("aaguid"),
            attestationFormat: try row.string("attestation_format"), name: try row.string("name"),
            createdAt: try row.date("created_at"), lastUsedAt: try row.optionalDate("last_used_at"),
            failures: try row.decode(column: "failures", as: Int.self), lockedAt: try row.optionalDate("locked_at"))
    }
}
