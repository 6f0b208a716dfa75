import Foundation
import SQLKit

// Pushed authorization requests (RFC 9126), table `pushed_requests` (PushedRequestMigrations).
extension SQLIdentityStore: PushedRequestStore {
    public func insertPushedRequest(_ record: PushedRequestRecord) async throws {
        try await database.insert(into: "pushed_requests")
            .columns("request_digest", "client_id", "parameters", "expires_at")
            .values(
                record.digest, record.clientID, try StoreValue.json(record.parameters), StoreValue.time(record.expiresAt))
            .run()
    }

    /// One `DELETE … RETURNING`: of two processes taking the same request, one gets the row.
    public func takePushedRequest(digest: String, now: Date) async throws -> PushedRequestRecord? {
        guard
            let row = try await database.delete(from: "pushed_requests")
                .where("request_digest", .equal, digest)
                .returning("request_digest", "client_id", "parameters", "expires_at")
                .first()
        else { return nil }
        let record = PushedRequestRecord(
            digest: try row.string("request_digest"), clientID: try row.string("client_id"),
            parameters: try row.json("parameters", as: [String: String].self), expiresAt: try row.date("expires_at"))
        return record.expiresAt > now ? record : nil
    }

    func purgePushedRequests(now: Date) async throws {
        try await database.delete(from: "pushed_requests").where("expires_at", .lessThanOrEqual, StoreValue.time(now)).run()
    }
}
