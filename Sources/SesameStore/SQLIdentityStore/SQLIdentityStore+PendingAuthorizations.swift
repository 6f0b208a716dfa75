import Foundation
import SQLKit

// Authorization requests held for a browser, table `pending_authorizations`
// (PendingAuthorizationMigrations).
extension SQLIdentityStore: PendingAuthorizationStore {
    public func insertPendingAuthorization(_ record: PendingAuthorizationRecord) async throws {
        try await database.insert(into: "pending_authorizations")
            .columns("request_digest", "browser_binding", "client_id", "parameters", "pushed", "expires_at")
            .values(
                record.digest, record.browserBinding, record.clientID, try StoreValue.json(record.parameters),
                record.pushed, StoreValue.time(record.expiresAt))
            .run()
    }

    public func pendingAuthorization(digest: String, browserBinding: String, now: Date) async throws
        -> PendingAuthorizationRecord?
    {
        guard
            let row = try await database.select().column("*").from("pending_authorizations")
                .where("request_digest", .equal, digest)
                .where("browser_binding", .equal, browserBinding)
                .where("completed_at", .is, SQLLiteral.null)
                .where("expires_at", .greaterThan, StoreValue.time(now))
                .first()
        else { return nil }
        return PendingAuthorizationRecord(
            digest: try row.string("request_digest"), browserBinding: try row.string("browser_binding"),
            clientID: try row.string("client_id"), parameters: try row.json("parameters", as: [String: String].self),
            pushed: try row.decode(column: "pushed", as: Bool.self), expiresAt: try row.date("expires_at"))
    }

    /// One conditional `UPDATE … RETURNING`: of any number of processes completing the same
    /// request at once, exactly one statement changes the row and gets it back.
    public func completePendingAuthorization(digest: String, browserBinding: String, now: Date) async throws -> Bool {
        let at = StoreValue.time(now)
        let won = try await database.update("pending_authorizations")
            .set("completed_at", to: at)
            .where("request_digest", .equal, digest)
            .where("browser_binding", .equal, browserBinding)
            .where("completed_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, at)
            .returning("request_digest")
            .first()
        return won != nil
    }

    func purgePendingAuthorizations(now: Date) async throws {
        try await database.delete(from: "pending_authorizations")
            .where("expires_at", .lessThanOrEqual, StoreValue.time(now)).run()
    }
}
