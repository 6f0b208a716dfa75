import Foundation
import SQLKit

/// Schema for the admin API and console (issue #47): operators' roles, disabled accounts, and
/// the prefix index the user search reads.
enum AdminMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 1400, name: "admin roles and disabled users", apply: createRoles),
        StoreMigrations.Migration(version: 1401, name: "the user search index", apply: createSearchTerms),
        StoreMigrations.Migration(version: 1402, name: "server processes seen", apply: createProcesses),
    ]

    /// `server_processes`: one row per running `sesame serve` process, its heartbeat.
    private static func createProcesses(_ db: any SQLDatabase) async throws {
        try await db.create(table: "server_processes").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("host", type: .text, .notNull)
            .column("pid", type: .bigint, .notNull)
            .column("started_at", type: StoreDialect.timestamp, .notNull)
            .column("last_seen", type: StoreDialect.timestamp, .notNull)
            .run()
    }

    private static func createRoles(_ db: any SQLDatabase) async throws {
        try await db.create(table: "admin_roles").ifNotExists()
            .column("user_id", type: .text, .primaryKey(autoIncrement: false))
            .column("role", type: .text, .notNull)
            .column("granted_at", type: StoreDialect.timestamp, .notNull)
            .column("granted_by", type: .text)
            .run()
        try await db.alter(table: "users").column("disabled_at", type: StoreDialect.timestamp).run()
    }

    /// `user_search_terms`: one row per searchable field of a user (the lowercased username,
    /// email, name and subject), its primary key the search order (term, user, field). On
    /// PostgreSQL the term compares byte by byte (`COLLATE "C"`), as on SQLite, so a prefix is
    /// one index range whatever the database's locale. Existing users are indexed here.
    private static func createSearchTerms(_ db: any SQLDatabase) async throws {
        let collation = db.dialect.name == "postgresql" ? #" COLLATE "C""# : ""
        try await db.raw(
            """
            CREATE TABLE IF NOT EXISTS user_search_terms (
                term TEXT NOT NULL\(unsafeRaw: collation),
                user_id TEXT NOT NULL,
                field TEXT NOT NULL,
                PRIMARY KEY (term, user_id, field)
            )
            """
        ).run()
        try await db.raw("CREATE INDEX IF NOT EXISTS user_search_terms_user ON user_search_terms (user_id)").run()
        var after = ""
        while true {
            let rows = try await db.select().column("id").column("username").column("email").column("claims")
                .from("users").where("id", .greaterThan, after).orderBy("id").limit(1000).all()
            guard let last = rows.last else { break }
            for row in rows {
                let id = try row.decode(column: "id", as: String.self)
                let claims = try? StoreValue.fromJSON(
                    NameOnly.self, try row.decode(column: "claims", as: String.self), column: "claims")
                try await UserSearchTerms.insert(
                    UserSearchTerms.terms(
                        id: id, username: try row.decode(column: "username", as: String.self),
                        email: try row.decode(column: "email", as: String.self), name: claims?.name),
                    userID: id, into: db)
            }
            after = try last.decode(column: "id", as: String.self)
        }
    }

    private struct NameOnly: Decodable {
        var name: String?
    }
}
