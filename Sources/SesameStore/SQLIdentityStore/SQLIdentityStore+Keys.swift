import Foundation
import SQLKit

// Signing keys (sealed private keys; see ``KeyRing``).
extension SQLIdentityStore {
    public func insertSigningKey(_ key: SigningKeyRecord) async throws {
        do {
            try await database.insert(into: "signing_keys")
                .columns("kid", "algorithm", "sealed_private_key", "created_at", "activates_at", "retired_at", "expires_at")
                .values(
                    key.kid, key.algorithm, key.sealedPrivateKey, StoreValue.time(key.createdAt),
                    StoreValue.time(key.activatesAt), StoreValue.time(key.retiredAt),
                    StoreValue.time(key.expiresAt)
                )
                .run()
        } catch {
            if StoreDialect.uniqueViolation(in: error, columns: ["kid"]) != nil {
                throw StoreError.conflict(field: "kid")
            }
            throw error
        }
        await announce(.signingKeys)
    }

    public func updateSigningKey(_ key: SigningKeyRecord) async throws {
        try await database.update("signing_keys")
            .set("algorithm", to: key.algorithm)
            .set("sealed_private_key", to: key.sealedPrivateKey)
            .set("created_at", to: StoreValue.time(key.createdAt))
            .set("activates_at", to: StoreValue.time(key.activatesAt))
            .set("retired_at", to: StoreValue.time(key.retiredAt))
            .set("expires_at", to: StoreValue.time(key.expiresAt))
            .where("kid", .equal, key.kid)
            .run()
        await announce(.signingKeys)
    }

    /// All keys, oldest first.
    public func signingKeys() async throws -> [SigningKeyRecord] {
        try await database.select().column("*").from("signing_keys")
            .orderBy("created_at")
            .orderBy("kid")
            .all()
            .map { row in
                SigningKeyRecord(
                    kid: try row.string("kid"),
                    algorithm: try row.string("algorithm"),
                    sealedPrivateKey: try row.string("sealed_private_key"),
                    createdAt: try row.date("created_at"),
                    activatesAt: try row.date("activates_at"),
                    retiredAt: try row.optionalDate("retired_at"),
                    expiresAt: try row.optionalDate("expires_at"))
            }
    }

    public func removeSigningKey(kid: String) async throws {
        try await database.delete(from: "signing_keys").where("kid", .equal, kid).run()
        await announce(.signingKeys)
    }
}
