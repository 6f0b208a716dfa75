import Foundation
import SQLKit

// Device authorization requests (RFC 8628), table `device_authorizations`
// (DeviceAuthorizationMigrations). Each transition is one conditional statement.
extension SQLIdentityStore: DeviceAuthorizationStore {
    private static let columns = [
        "device_code_digest", "user_code_digest", "client_id", "scope", "device_name", "status", "created_at",
        "expires_at", "poll_interval", "authentication", "session_id",
    ]

    public func insertDeviceAuthorization(_ record: DeviceAuthorizationRecord) async throws {
        do {
            try await database.insert(into: "device_authorizations")
                .columns(Self.columns)
                .values(
                    record.deviceCodeDigest, record.userCodeDigest, record.clientID, record.scope, record.deviceName,
                    record.status.rawValue, StoreValue.time(record.createdAt), StoreValue.time(record.expiresAt),
                    record.interval, try record.authentication.map(StoreValue.json), record.sessionID
                )
                .run()
        } catch {
            if StoreDialect.uniqueViolation(in: error, columns: ["user_code_digest"]) != nil {
                throw StoreError.conflict(field: "user_code_digest")
            }
            throw error
        }
    }

    public func deviceAuthorization(userCodeDigest: String) async throws -> DeviceAuthorizationRecord? {
        try await database.select().columns(Self.columns).from("device_authorizations")
            .where("user_code_digest", .equal, userCodeDigest)
            .first()
            .map(Self.deviceAuthorizationRecord)
    }

    /// `UPDATE … RETURNING`: every right-hand side sees the row as it was, so the comparison with
    /// the previous poll and the new interval are decided together, row-locked against a
    /// concurrent poll on another process.
    public func pollDeviceAuthorization(
        deviceCodeDigest: String, clientID: String, now: Date, tolerance: TimeInterval, slowDownIncrement: Int
    ) async throws -> DeviceAuthorizationPoll? {
        let at = StoreValue.time(now)
        guard
            let row = try await database.raw(
                """
                UPDATE device_authorizations SET
                    poll_interval = CASE
                        WHEN last_polled_at IS NOT NULL AND \(bind: at + tolerance) < last_polled_at + poll_interval
                        THEN poll_interval + \(bind: slowDownIncrement) ELSE poll_interval END,
                    polled_early = CASE
                        WHEN last_polled_at IS NOT NULL AND \(bind: at + tolerance) < last_polled_at + poll_interval
                        THEN 1 ELSE 0 END,
                    last_polled_at = \(bind: at)
                WHERE device_code_digest = \(bind: deviceCodeDigest) AND client_id = \(bind: clientID)
                RETURNING status, expires_at, poll_interval, polled_early
                """
            ).first()
        else { return nil }
        guard let status = DeviceAuthorizationStatus(rawValue: try row.string("status")) else {
            throw StoreError.unavailable(reason: "device_authorizations.status holds an unknown value; the database may be corrupt")
        }
        return DeviceAuthorizationPoll(
            status: status, expiresAt: try row.date("expires_at"),
            interval: try row.decode(column: "poll_interval", as: Int.self),
            tooEarly: try row.decode(column: "polled_early", as: Int.self) != 0)
    }

    public func approveDeviceAuthorization(
        userCodeDigest: String, authentication: AuthenticationContext, sessionID: String?, now: Date
    ) async throws -> Bool {
        try await database.raw(
            """
            UPDATE device_authorizations SET status = 'approved', authentication = \(bind: try StoreValue.json(authentication)),
                session_id = \(bind: sessionID), user_id = \(bind: authentication.userID), decided_at = \(bind: StoreValue.time(now))
            WHERE user_code_digest = \(bind: userCodeDigest) AND status = 'pending' AND expires_at > \(bind: StoreValue.time(now))
            RETURNING device_code_digest
            """
        ).first() != nil
    }

    public func denyDeviceAuthorization(userCodeDigest: String, now: Date) async throws -> Bool {
        try await database.raw(
            """
            UPDATE device_authorizations SET status = 'denied', decided_at = \(bind: StoreValue.time(now))
            WHERE user_code_digest = \(bind: userCodeDigest) AND status = 'pending' AND expires_at > \(bind: StoreValue.time(now))
            RETURNING device_code_digest
            """
        ).first() != nil
    }

    public func redeemDeviceAuthorization(deviceCodeDigest: String, now: Date) async throws -> DeviceAuthorizationRecord? {
        try await database.raw(
            """
            UPDATE device_authorizations SET status = 'redeemed'
            WHERE device_code_digest = \(bind: deviceCodeDigest) AND status = 'approved' AND expires_at > \(bind: StoreValue.time(now))
            RETURNING \(unsafeRaw: Self.columns.joined(separator: ", "))
            """
        ).first().map(Self.deviceAuthorizationRecord)
    }

    /// Requests an hour past their expiry: until then a late poll still hears `expired_token`.
    func purgeDeviceAuthorizations(now: Date) async throws {
        try await database.delete(from: "device_authorizations")
            .where("expires_at", .lessThanOrEqual, StoreValue.time(now) - 3_600)
            .run()
    }

    private static func deviceAuthorizationRecord(_ row: any SQLRow) throws -> DeviceAuthorizationRecord {
        guard let status = DeviceAuthorizationStatus(rawValue: try row.string("status")) else {
            throw StoreError.unavailable(reason: "device_authorizations.status holds an unknown value; the database may be corrupt")
        }
        return DeviceAuthorizationRecord(
            deviceCodeDigest: try row.string("device_code_digest"), userCodeDigest: try row.string("user_code_digest"),
            clientID: try row.string("client_id"), scope: try row.string("scope"),
            deviceName: try row.optionalString("device_name"), status: status, createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), interval: try row.decode(column: "poll_interval", as: Int.self),
            authentication: try row.optionalJSON("authentication", as: AuthenticationContext.self),
            sessionID: try row.optionalString("session_id"))
    }
}
