import Foundation
import SQLKit
import SesameProtocol

// PIN registrations (docs/pin-devices.md). A guess is counted before its signature is checked
// (``reservePINAttempt(id:maxAttempts:)``) and settled afterwards.
extension SQLIdentityStore: PINStore {
    public func insertPINRegistration(_ registration: PINRegistrationRecord) async throws {
        try await database.insert(into: "pin_registrations")
            .columns("id", "user_id", "client_id", "label", "public_key", "failures", "created_at", "last_used_at")
            .values(
                SQLBind(registration.id), SQLBind(registration.userID), SQLBind(registration.clientID),
                SQLBind(registration.label), SQLBind(Base64URL.encode(registration.publicKey)),
                SQLBind(registration.failures), SQLBind(StoreValue.time(registration.createdAt)),
                SQLBind(StoreValue.time(registration.lastUsedAt)))
            .run()
    }

    public func pinRegistration(id: String) async throws -> PINRegistrationRecord? {
        try await database.select().column("*").from("pin_registrations").where("id", .equal, id)
            .first().map(Self.pinRegistration)
    }

    public func pinRegistrations(userID: String) async throws -> [PINRegistrationRecord] {
        try await database.select().column("*").from("pin_registrations").where("user_id", .equal, userID)
            .orderBy("created_at").all().map(Self.pinRegistration)
    }

    public func reservePINAttempt(id: String, maxAttempts: Int) async throws -> Int? {
        try await reserveAttempt(in: "pin_registrations", column: "failures", maxAttempts: maxAttempts) {
            $0.where("id", .equal, id)
        }
    }

    public func settlePINSuccess(id: String, now: Date) async throws -> Bool {
        try await database.update("pin_registrations")
            .set("failures", to: 0).set("last_used_at", to: StoreValue.time(now))
            .where("id", .equal, id)
            .returning("id")
            .first() != nil
    }

    @discardableResult
    public func removePINRegistration(id: String) async throws -> Bool {
        let rows = try await database.delete(from: "pin_registrations").where("id", .equal, id).returning("id").all()
        return !rows.isEmpty
    }

    public func pinPolicy(clientID: String) async throws -> PINPolicy? {
        guard let row = try await database.select().column("policy").from("client_pin_policies")
            .where("client_id", .equal, clientID).first()
        else { return nil }
        return try StoreValue.fromJSON(PINPolicy.self, try row.string("policy"), column: "policy")
    }

    public func setPINPolicy(_ policy: PINPolicy?, clientID: String) async throws {
        guard let policy else {
            try await database.delete(from: "client_pin_policies").where("client_id", .equal, clientID).run()
            return
        }
        let json = try StoreValue.json(policy)
        try await database.raw(
            """
            INSERT INTO client_pin_policies (client_id, policy) VALUES (\(bind: clientID), \(bind: json))
            ON CONFLICT (client_id) DO UPDATE SET policy = \(bind: json)
            """
        ).run()
    }

    private static func pinRegistration(_ row: any SQLRow) throws -> PINRegistrationRecord {
        guard let key = Base64URL.decode(try row.string("public_key")) else {
            throw StoreError.unavailable(reason: "a PIN registration's public key is not base64url; the database may be corrupt")
        }
        return PINRegistrationRecord(
            id: try row.string("id"), userID: try row.string("user_id"), clientID: try row.string("client_id"),
            label: try row.decode(column: "label", as: String?.self), publicKey: key,
            failures: try row.decode(column: "failures", as: Int.self), createdAt: try row.date("created_at"),
            lastUsedAt: try row.optionalDate("last_used_at"))
    }
}
