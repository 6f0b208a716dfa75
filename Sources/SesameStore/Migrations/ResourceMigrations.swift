import SQLKit

/// Registered APIs and audience-restricted tokens (RFC 8707, issue #49): the `apis` table, the
/// APIs each client may ask for, and the APIs a code or refresh-token family was authorized for.
enum ResourceMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 1500, name: "registered APIs and resource indicators", apply: addResources)
    ]

    /// `apis` (identifier, name, the scopes it defines as JSON); `clients.resources` (JSON, NULL:
    /// none) and `clients.default_resource`; `authorization_codes.resources` and
    /// `refresh_tokens.resources` (space-separated, NULL: none, as every row before).
    private static func addResources(_ db: any SQLDatabase) async throws {
        try await db.create(table: "apis").ifNotExists()
            .column("identifier", type: .text, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .column("scopes", type: .text, .notNull)
            .column("created_at", type: StoreDialect.timestamp, .notNull)
            .run()
        for (table, column) in [
            ("clients", "resources"), ("clients", "default_resource"), ("authorization_codes", "resources"),
            ("refresh_tokens", "resources"),
        ] where await !StoreMigrations.hasColumn(column, in: table, db) {
            try await db.alter(table: table).column(column, type: .text).run()
        }
    }
}
