import Foundation
import SQLKit
import SesameProtocol

extension SQLIdentityStore: DeviceSessionStore {
    public func insertDeviceSession(_ session: DeviceSessionRecord) async throws {
        try await database.insert(into: "device_sessions")
            .columns(
                "id", "secret_digest", "user_id", "app_group", "authentication", "browser_session_id", "created_at",
                "expires_at", "revoked_at"
            )
            .values(
                SQLBind(session.id), SQLBind(session.secretDigest), SQLBind(session.userID), SQLBind(session.appGroup),
                SQLBind(try StoreValue.json(session.authentication)), SQLBind(session.browserSessionID),
                SQLBind(StoreValue.time(session.createdAt)), SQLBind(StoreValue.time(session.expiresAt)),
                SQLBind(StoreValue.time(session.revokedAt)))
            .run()
    }

    public func deviceSession(secretDigest: String) async throws -> DeviceSessionRecord? {
        try await database.select().column("*").from("device_sessions").where("secret_digest", .equal, secretDigest)
            .first().map(Self.deviceSession)
    }

    public func deviceSession(id: String) async throws -> DeviceSessionRecord? {
        try await database.select().column("*").from("device_sessions").where("id", .equal, id)
            .first().map(Self.deviceSession)
    }

    public func rotateDeviceSecret(sessionID: String, newDigest: String) async throws {
        try await database.update("device_sessions").set("secret_digest", to: newDigest)
            .where("id", .equal, sessionID).run()
    }

    @discardableResult
    public func revokeDeviceSession(id: String, now: Date) async throws -> Bool {
        let revoked = try await database.raw(
            "UPDATE device_sessions SET revoked_at = \(bind: StoreValue.time(now)) WHERE id = \(bind: id) AND revoked_at IS NULL RETURNING id"
        ).first() != nil
        // Also when it was already revoked: a family created while the revocation ran ends too.
        try await revokeFamilies(ids: families(matching: "session_id", id), now: now, reason: .signedOutEverywhere)
        return revoked
    }

    public func revokeDeviceSessions(userID: String, keeping: String?, now: Date) async throws {
        var query = database.select().column("id").from("device_sessions")
            .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
        if let keeping { query = query.where("id", .notEqual, keeping) }
        for id in try await query.all(decodingColumn: "id", as: String.self) {
            try await revokeDeviceSession(id: id, now: now)
        }
    }

    public func recordClientAssertion(clientID: String, jti: String, expiresAt: Date) async throws -> Bool {
        // The id joins both with a separator neither can hold unescaped (client ids are
        // printable ASCII without spaces, checked at registration).
        let id = clientID + " " + jti
        return try await database.raw(
            "INSERT INTO used_client_assertions (id, expires_at) VALUES (\(bind: id), \(bind: StoreValue.time(expiresAt))) ON CONFLICT (id) DO NOTHING RETURNING id"
        ).first() != nil
    }

    func purgeNativeSSO(now: Date) async throws {
        let cutoff = StoreValue.time(now)
        try await database.delete(from: "device_sessions").where("expires_at", .lessThanOrEqual, cutoff).run()
        try await database.delete(from: "used_client_assertions").where("expires_at", .lessThanOrEqual, cutoff).run()
    }

    static func deviceSession(_ row: any SQLRow) throws -> DeviceSessionRecord {
        DeviceSessionRecord(
            id: try row.string("id"), secretDigest: try row.string("secret_digest"), userID: try row.string("user_id"),
            appGroup: try row.string("app_group"),
            authentication: try row.json("authentication", as: AuthenticationContext.self),
            browserSessionID: try row.optionalString("browser_session_id"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), revokedAt: try row.optionalDate("revoked_at"))
    }
}
