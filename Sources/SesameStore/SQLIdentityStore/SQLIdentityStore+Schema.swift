import Foundation
import SQLKit

/// Where a database's schema stands against this Sesame's migrations (`sesame db status`).
public struct SchemaStatus: Sendable, Equatable {
    /// Versions recorded in `schema_migrations`.
    public var applied: [Int]
    /// Versions this Sesame knows, in order.
    public var known: [Int]

    /// Known versions not applied yet (`sesame db migrate` applies them).
    public var pending: [Int] { known.filter { !applied.contains($0) } }
    /// Applied versions this Sesame does not know: a newer Sesame migrated the database.
    public var unknown: [Int] { applied.filter { !known.contains($0) } }
}

extension SQLIdentityStore {
    /// The applied and known migrations. A database never migrated has none applied.
    public func schemaStatus() async throws -> SchemaStatus {
        let applied = (try? await database.select().column("version").from("schema_migrations")
            .all(decodingColumn: "version", as: Int.self)) ?? []
        return SchemaStatus(applied: applied.sorted(), known: StoreMigrations.all.map(\.version))
    }

    /// An online copy of the SQLite database into `file` (`VACUUM INTO`, SQLite 3.27+): a
    /// consistent snapshot while the server keeps serving. The file must not exist yet.
    /// PostgreSQL databases are backed up with `pg_dump`.
    public func backupSQLite(to file: URL) async throws {
        guard database.dialect.name == "sqlite" else {
            throw StoreError.unavailable(reason: "sesame db backup copies SQLite databases; back PostgreSQL up with pg_dump")
        }
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw StoreError.unavailable(reason: "\(file.path) already exists; choose a new file name")
        }
        do {
            try await database.raw("VACUUM INTO \(bind: file.path)").run()
        } catch {
            throw StoreError.unavailable(reason: "the backup to \(file.path) failed (\(error))")
        }
    }
}
