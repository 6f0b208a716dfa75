import Foundation
import SQLKit
import SesameProtocol

// Account self-service (docs/first-party-and-accounts.md): verification codes, the message outbox and devices.
// An answer's attempt is reserved by one conditional UPDATE … RETURNING before it is compared;
// a code is consumed with the claim technique of `redeemAuthorizationCode(digest:now:)`: one
// conditional UPDATE writes a random claim, and re-reading the row by primary key tells the
// caller whether its own update took effect.
extension SQLIdentityStore: AccountStore {
    // MARK: Verification codes

    public func saveVerificationCode(_ code: VerificationCodeRecord) async throws {
        try await database.insert(into: "verification_codes")
            .columns(
                "user_id", "purpose", "code_digest", "target", "attempts", "attempt_claim",
                "consumed_claim", "created_at", "expires_at")
            .values(
                code.userID, code.purpose, code.codeDigest, code.target, code.attempts,
                String?.none, String?.none, StoreValue.time(code.createdAt),
                StoreValue.time(code.expiresAt))
            .onConflict(with: ["user_id", "purpose"]) { conflict in
                conflict
                    .set(excludedValueOf: "code_digest")
                    .set(excludedValueOf: "target")
                    .set(excludedValueOf: "attempts")
                    .set(excludedValueOf: "attempt_claim")
                    .set(excludedValueOf: "consumed_claim")
                    .set(excludedValueOf: "created_at")
                    .set(excludedValueOf: "expires_at")
            }
            .run()
    }

    public func verificationCode(userID: String, purpose: String) async throws -> VerificationCodeRecord? {
        try await codeQuery(userID: userID, purpose: purpose).first().map(Self.verificationRecord)
    }

    public func reserveVerificationAttempt(
        userID: String, purpose: String, maxAttempts: Int, now: Date
    ) async throws -> VerificationCodeRecord? {
        guard maxAttempts > 0 else { return nil }
        // One conditional UPDATE … RETURNING (see ``reserveAttempt(in:column:maxAttempts:where:)``):
        // each caller learns its own count, so exactly `maxAttempts` answers are compared.
        let row = try await database.update("verification_codes")
            .set("attempts", to: SQLBinaryExpression(SQLColumn("attempts"), .add, SQLLiteral.numeric("1")))
            .where("user_id", .equal, userID)
            .where("purpose", .equal, purpose)
            .where("attempts", .lessThan, maxAttempts)
            .where("consumed_claim", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, StoreValue.time(now))
            .returning(SQLLiteral.all)
            .first()
        return try row.map(Self.verificationRecord)
    }

    public func consumeVerificationCode(userID: String, purpose: String, codeDigest: String) async throws -> Bool {
        let claim = SecureRandom.uuid()
        try await database.update("verification_codes")
            .set("consumed_claim", to: claim)
            .where("user_id", .equal, userID)
            .where("purpose", .equal, purpose)
            .where("code_digest", .equal, codeDigest)
            .where("consumed_claim", .is, SQLLiteral.null)
            .run()
        let won =
            try await codeQuery(userID: userID, purpose: purpose).first()?
            .optionalString("consumed_claim") == claim
        if won {
            try await database.delete(from: "verification_codes")
                .where("user_id", .equal, userID)
                .where("purpose", .equal, purpose)
                .where("consumed_claim", .equal, claim)
                .run()
        }
        return won
    }

    public func removeVerificationCodes(userID: String) async throws {
        try await database.delete(from: "verification_codes").where("user_id", .equal, userID).run()
    }

    private func codeQuery(userID: String, purpose: String) -> SQLSelectBuilder {
        database.select().column("*").from("verification_codes")
            .where("user_id", .equal, userID)
            .where("purpose", .equal, purpose)
    }

    static func verificationRecord(_ row: any SQLRow) throws -> VerificationCodeRecord {
        VerificationCodeRecord(
            userID: try row.string("user_id"),
            purpose: try row.string("purpose"),
            codeDigest: try row.string("code_digest"),
            target: try row.string("target"),
            attempts: try row.decode(column: "attempts", as: Int.self),
            createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"))
    }

    // MARK: Outbox

    /// Uses `RETURNING` (SQLite ≥ 3.35, PostgreSQL) to learn the new id: the one connection
    /// is shared by concurrent requests, so `last_insert_rowid()` would race.
    @discardableResult
    public func enqueueMessage(_ message: OutboundMessage) async throws -> Int64 {
        let id = try await database.insert(into: "outbox")
            .columns("channel", "recipient", "subject", "body", "purpose", "created_at", "delivered_at")
            .values(
                message.channel.rawValue, message.to.lowercased(), message.subject, message.body,
                message.purpose, StoreValue.time(message.createdAt), Double?.none)
            .returning("id")
            .first(decodingColumn: "id", as: Int64.self)
        guard let id else { throw StoreError.unavailable(reason: "the outbox insert returned no id") }
        return id
    }

    public func outboxEntries(to recipient: String?, purpose: String?) async throws -> [OutboxEntry] {
        var query = database.select().column("*").from("outbox")
        if let recipient { query = query.where("recipient", .equal, recipient.lowercased()) }
        if let purpose { query = query.where("purpose", .equal, purpose) }
        return try await query.orderBy("id").all().map(Self.outboxEntry)
    }

    public func markMessageDelivered(id: Int64, at date: Date) async throws {
        try await database.update("outbox")
            .set("delivered_at", to: StoreValue.time(date))
            .set("body", to: "")
            .where("id", .equal, id)
            .run()
    }

    static func outboxEntry(_ row: any SQLRow) throws -> OutboxEntry {
        let channelName = try row.string("channel")
        guard let channel = OutboundMessage.Channel(rawValue: channelName) else {
            throw StoreError.unavailable(
                reason: "outbox.channel holds the unknown channel \"\(channelName)\"; a newer server wrote it")
        }
        return OutboxEntry(
            id: try row.decode(column: "id", as: Int64.self),
            message: OutboundMessage(
                channel: channel, to: try row.string("recipient"),
                subject: try row.optionalString("subject"), body: try row.string("body"),
                purpose: try row.string("purpose"), createdAt: try row.date("created_at")),
            deliveredAt: try row.optionalDate("delivered_at"))
    }

    // MARK: Devices

    public func saveDevice(
        _ registration: DeviceRegistration, userID: String, now: Date, limit: Int
    ) async throws -> Device? {
        // One statement, so parallel registrations cannot pass the limit together: a new
        // device is inserted only while the user has fewer than `limit`; an existing one is
        // always updated (the upsert needs the WHERE of the SELECT, SQLite's parsing rule).
        //
        // SQLite runs one writer at a time, so the COUNT is always current. PostgreSQL's
        // READ COMMITTED gives each statement a snapshot taken when it starts, so concurrent
        // inserts would all see the same count: there the statement runs under an advisory lock
        // per user (``serializedPerKey(_:_:)``), which makes it start after the previous one
        // committed.
        let time = StoreValue.time(now)
        let insert: SQLQueryString = """
            INSERT INTO devices (user_id, device_id, name, type, created_at, updated_at)
            SELECT \(bind: userID), \(bind: registration.deviceID), \(bind: registration.name),
                \(bind: registration.type), \(bind: time), \(bind: time)
            WHERE (SELECT COUNT(*) FROM devices WHERE user_id = \(bind: userID)) < \(bind: limit)
                OR EXISTS (SELECT 1 FROM devices WHERE user_id = \(bind: userID) AND device_id = \(bind: registration.deviceID))
            ON CONFLICT (user_id, device_id) DO UPDATE SET
                name = excluded.name, type = excluded.type, updated_at = excluded.updated_at
            """
        try await serializedPerKey("devices:" + userID) { session in try await session.raw(insert).run() }
        guard
            let row = try await database.select().column("*").from("devices")
                .where("user_id", .equal, userID)
                .where("device_id", .equal, registration.deviceID)
                .first()
        else { return nil }
        return try Self.device(row)
    }

    public func devices(userID: String) async throws -> [Device] {
        try await database.select().column("*").from("devices")
            .where("user_id", .equal, userID)
            .orderBy("created_at")
            .orderBy("device_id")
            .all()
            .map(Self.device)
    }

    @discardableResult
    public func removeDevice(userID: String, deviceID: String) async throws -> Bool {
        let exists =
            try await database.select().column("device_id").from("devices")
            .where("user_id", .equal, userID)
            .where("device_id", .equal, deviceID)
            .first() != nil
        guard exists else { return false }
        try await database.delete(from: "devices")
            .where("user_id", .equal, userID)
            .where("device_id", .equal, deviceID)
            .run()
        return true
    }

    public func removeDevices(userID: String) async throws {
        try await database.delete(from: "devices").where("user_id", .equal, userID).run()
    }

    static func device(_ row: any SQLRow) throws -> Device {
        Device(
            deviceID: try row.string("device_id"),
            name: try row.string("name"),
            type: try row.optionalString("type"),
            createdAt: Int(try row.date("created_at").timeIntervalSince1970))
    }

    // MARK: Sessions

    public func revokeAllTokens(
        userID: String, now: Date, keepingFamily: String?, keepingSession: String?,
        reason: RefreshFamilyRevocationReason
    ) async throws {
        let families = try await families(matching: "user_id", userID)
        try await revokeFamilies(ids: families.filter { $0 != keepingFamily }, now: now, reason: reason)
        // Native SSO: the device sessions end too, but the one the request came through.
        try await revokeDeviceSessions(userID: userID, keeping: keepingSession, now: now)
        var sessions = database.delete(from: "browser_sessions").where("user_id", .equal, userID)
        if let keepingSession { sessions = sessions.where("sid", .notEqual, keepingSession) }
        try await sessions.run()
    }

    // MARK: Maintenance

    public func purgeExpiredAccountData(now: Date) async throws {
        try await database.delete(from: "verification_codes")
            .where("expires_at", .lessThanOrEqual, StoreValue.time(now))
            .run()
    }
}
