import Foundation
import SQLKit

extension SQLIdentityStore {
    public func readySchemaVersion() async throws -> Int {
        let applied: Set<Int>
        do {
            applied = Set(
                try await database.select().column("version").from("schema_migrations")
                    .all(decodingColumn: "version", as: Int.self))
        } catch {
            throw StoreError.unavailable(reason: "the database does not answer (\(error))")
        }
        let known = Set(StoreMigrations.all.map(\.version))
        if let newer = applied.subtracting(known).max() {
            throw StoreError.unavailable(reason: "the database was migrated by a newer Sesame (schema version \(newer))")
        }
        if let missing = known.subtracting(applied).min() {
            throw StoreError.unavailable(reason: "migration \(missing) has not been applied yet")
        }
        return known.max() ?? 0
    }
}
