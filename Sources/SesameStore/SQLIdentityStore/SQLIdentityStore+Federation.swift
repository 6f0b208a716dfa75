import Foundation
import SQLKit
import SesameProtocol

extension SQLIdentityStore: FederationStore {
    public func upsertFederationProvider(_ provider: FederationProviderRecord) async throws {
        try await database.insert(into: "federation_providers")
            .columns("id", "provider", "created_at")
            .values(
                SQLBind(provider.id), SQLBind(try StoreValue.json(provider)), SQLBind(StoreValue.time(provider.createdAt)))
            .onConflict(with: ["id"]) { $0.set(excludedValueOf: "provider") }
            .run()
    }

    public func federationProvider(id: String) async throws -> FederationProviderRecord? {
        try await database.select().column("provider").from("federation_providers").where("id", .equal, id)
            .first().map { try $0.json("provider", as: FederationProviderRecord.self) }
    }

    public func federationProviders() async throws -> [FederationProviderRecord] {
        try await database.select().column("provider").from("federation_providers").orderBy("id")
            .all().map { try $0.json("provider", as: FederationProviderRecord.self) }
    }

    @discardableResult
    public func removeFederationProvider(id: String) async throws -> Bool {
        guard try await federationProvider(id: id) != nil else { return false }
        try await database.delete(from: "federated_identities").where("provider_id", .equal, id).run()
        try await database.delete(from: "federation_providers").where("id", .equal, id).run()
        return true
    }

    public func linkFederatedIdentity(_ identity: FederatedIdentityRecord) async throws {
        let inserted = try await database.raw(
            """
            INSERT INTO federated_identities (provider_id, subject, user_id, email, linked_at) \
            VALUES (\(bind: identity.providerID), \(bind: identity.subject), \(bind: identity.userID), \
            \(bind: identity.email), \(bind: StoreValue.time(identity.linkedAt))) \
            ON CONFLICT (provider_id, subject) DO NOTHING RETURNING user_id
            """
        ).first() != nil
        guard inserted else { throw StoreError.conflict(field: "federated_identity") }
    }

    public func federatedIdentity(providerID: String, subject: String) async throws -> FederatedIdentityRecord? {
        try await database.select().column("*").from("federated_identities")
            .where("provider_id", .equal, providerID).where("subject", .equal, subject)
            .first().map(Self.federatedIdentity)
    }

    public func federatedIdentities(userID: String) async throws -> [FederatedIdentityRecord] {
        try await database.select().column("*").from("federated_identities").where("user_id", .equal, userID)
            .orderBy("linked_at").all().map(Self.federatedIdentity)
    }

    @discardableResult
    public func unlinkFederatedIdentity(providerID: String, subject: String) async throws -> Bool {
        try await database.raw(
            "DELETE FROM federated_identities WHERE provider_id = \(bind: providerID) AND subject = \(bind: subject) RETURNING user_id"
        ).first() != nil
    }

    public func recordFederatedToken(providerID: String, digest: String, expiresAt: Date) async throws -> Bool {
        // The digest has a fixed length, so the joined id names one (provider, token) pair.
        let id = providerID + " " + digest
        return try await database.raw(
            "INSERT INTO used_federated_tokens (id, expires_at) VALUES (\(bind: id), \(bind: StoreValue.time(expiresAt))) ON CONFLICT (id) DO NOTHING RETURNING id"
        ).first() != nil
    }

    static func federatedIdentity(_ row: any SQLRow) throws -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            providerID: try row.string("provider_id"), subject: try row.string("subject"), userID: try row.string("user_id"),
            email: try row.optionalString("email"), linkedAt: try row.date("linked_at"))
    }
}
