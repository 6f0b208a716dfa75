import ArgumentParser
import Foundation
import SesameServer

/// `sesame db migrate|status|backup`: the store's schema for deploy pipelines, and an online
/// copy of an SQLite database.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db", abstract: "Migrate, inspect or back up the server's database.",
        subcommands: [Migrate.self, Status.self, Backup.self])

    /// Opens the store of `dataDir` (`--database` or SQLite) without migrating it (the commands
    /// decide) and always closes it.
    static func withStore<Result>(
        _ dataDir: DataDirOption, _ body: (SQLIdentityStore, StoreLocation) async throws -> Result
    ) async throws -> Result {
        let location = try dataDir.storeLocation() ?? .sqlite(DataDirectory(url: dataDir.url))
        let logger = CLILogging.logger(label: "sesame.db", level: .warning)
        let store = try await SQLIdentityStore.open(location, logger: logger, migrate: false)
        do {
            let result = try await body(store, location)
            try await store.close()
            return result
        } catch {
            try? await store.close()
            throw error
        }
    }

    struct StatusReport: Encodable {
        var database: String
        var schemaVersion: Int
        var applied: [Int]
        var pending: [Int]
        var unknown: [Int]

        enum CodingKeys: String, CodingKey {
            case database, applied, pending, unknown
            case schemaVersion = "schema_version"
        }

        init(_ status: SchemaStatus, location: StoreLocation) {
            database = location.description
            schemaVersion = status.applied.max() ?? 0
            applied = status.applied
            pending = status.pending
            unknown = status.unknown
        }
    }

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply pending migrations and exit (for deploy pipelines, before new servers start).")
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let (before, report) = try await DatabaseCommand.withStore(dataDir) { store, location in
                    let before = try await store.schemaStatus()
                    try await store.migrate()
                    return (before, StatusReport(try await store.schemaStatus(), location: location))
                }
                if json.enabled { return try Terminal.json(report) }
                let applied = before.pending.count
                Terminal.out(
                    applied == 0
                        ? "\(report.database): schema version \(report.schemaVersion), nothing to migrate."
                        : "\(report.database): applied \(applied) migration\(applied == 1 ? "" : "s"); schema version \(report.schemaVersion).")
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the schema version and any pending migrations, without changing anything.")
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let report = try await DatabaseCommand.withStore(dataDir) { store, location in
                    StatusReport(try await store.schemaStatus(), location: location)
                }
                if json.enabled { return try Terminal.json(report) }
                Terminal.out("Database: \(report.database)")
                Terminal.out("Schema version: \(report.schemaVersion)")
                if !report.unknown.isEmpty {
                    throw CLIError(
                        "the database was migrated by a newer Sesame (versions \(report.unknown.map(String.init).joined(separator: ", ")))",
                        hint: "Run that version of Sesame or a later one.")
                }
                Terminal.out(
                    report.pending.isEmpty
                        ? "Up to date."
                        : "Pending migrations: \(report.pending.map(String.init).joined(separator: ", ")); run sesame db migrate.")
            }
        }
    }

    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the SQLite database to FILE while the server runs (a consistent snapshot).",
            discussion: "PostgreSQL databases are backed up with pg_dump.")
        @OptionGroup var dataDir: DataDirOption
        @Argument(help: ArgumentHelp("Where to write the copy; must not exist yet.", valueName: "file"))
        var file: String

        func run() async throws {
            try await reportingErrors {
                let target = URL(fileURLWithPath: file).standardizedFileURL
                do {
                    try await DatabaseCommand.withStore(dataDir) { store, _ in
                        try await store.backupSQLite(to: target)
                    }
                } catch StoreError.unavailable(let reason) {
                    throw CLIError(reason, hint: "sesame db backup FILE --data-dir DIR copies the SQLite database of DIR.")
                }
                Terminal.out("Backed up to \(target.path).")
            }
        }
    }
}
