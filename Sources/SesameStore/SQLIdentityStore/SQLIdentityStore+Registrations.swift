import Foundation
import SQLKit

// Dynamic client registration (RFC 7591, RFC 7592): the `client_registrations` and
// `initial_access_tokens` tables of migration 1600.
extension SQLIdentityStore: ClientRegistrationStore {
    public func insertClientRegistration(_ registration: ClientRegistrationRecord) async throws {
        try await database.insert(into: "client_registrations")
            .columns("client_id", "access_token_digest", "software_id", "software_version", "registered_at", "used_at")
            .values(
                registration.clientID, registration.accessTokenDigest, registration.softwareID, registration.softwareVersion,
                StoreValue.time(registration.registeredAt), StoreValue.time(registration.usedAt))
            .run()
    }

    public func clientRegistration(clientID: String) async throws -> ClientRegistrationRecord? {
        guard let row = try await selectAll(from: "client_registrations", where: "client_id", equals: clientID).first() else {
            return nil
        }
        return ClientRegistrationRecord(
            clientID: try row.string("client_id"), accessTokenDigest: try row.string("access_token_digest"),
            softwareID: try row.optionalString("software_id"), softwareVersion: try row.optionalString("software_version"),
            registeredAt: try row.date("registered_at"), usedAt: try row.optionalDate("used_at"))
    }

    public func replaceRegistrationAccessToken(clientID: String, digest: String, with newDigest: String) async throws -> Bool {
        let replaced = try await database.update("client_registrations")
            .set("access_token_digest", to: newDigest)
            .where("client_id", .equal, clientID)
            .where("access_token_digest", .equal, digest)
            .returning("client_id")
            .first()
        return replaced != nil
    }

    public func markClientRegistrationUsed(clientID: String, now: Date) async throws {
        try await database.update("client_registrations")
            .set("used_at", to: StoreValue.time(now))
            .where("client_id", .equal, clientID)
            .where("used_at", .is, SQLLiteral.null)
            .run()
    }

    public func removeUnusedRegisteredClients(registeredBefore cutoff: Date) async throws -> [String] {
        let ids = try await database.select().column("client_id").from("client_registrations")
            .where("used_at", .is, SQLLiteral.null)
            .where("registered_at", .lessThan, StoreValue.time(cutoff))
            .limit(1000)
            .all(decodingColumn: "client_id", as: String.self)
        for id in ids { try await removeClient(id: id) }
        return ids
    }

    public func insertInitialAccessToken(_ token: InitialAccessTokenRecord) async throws {
        try await database.insert(into: "initial_access_tokens")
            .columns("digest", "created_at", "expires_at", "uses_left")
            .values(token.digest, StoreValue.time(token.createdAt), StoreValue.time(token.expiresAt), token.usesLeft)
            .run()
    }

    public func consumeInitialAccessToken(digest: String, now: Date) async throws -> Bool {
        let used = try await database.update("initial_access_tokens")
            .set(SQLIdentifier("uses_left"), to: SQLRaw("uses_left - 1"))
            .where("digest", .equal, digest)
            .where("uses_left", .greaterThan, 0)
            .where("expires_at", .greaterThan, StoreValue.time(now))
            .returning("digest")
            .first()
        return used != nil
    }

    /// Deletes initial access tokens that expired or are used up (``purgeExpired(now:)``).
    func purgeInitialAccessTokens(now: Date) async throws {
        try await database.delete(from: "initial_access_tokens")
            .where("expires_at", .lessThanOrEqual, StoreValue.time(now))
            .orWhere("uses_left", .lessThanOrEqual, 0)
            .run()
    }
}
