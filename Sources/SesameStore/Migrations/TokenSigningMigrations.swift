import SQLKit

/// Schema for how tokens are signed per client (docs/benchmarks.md, issue #31).
enum TokenSigningMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 800, name: "access-token signing algorithm per client", apply: addAccessTokenAlgorithm)
    ]

    /// `clients.access_token_signing_alg`, `RS256` for every client registered before (what they
    /// were signed with).
    private static func addAccessTokenAlgorithm(_ db: any SQLDatabase) async throws {
        if await !StoreMigrations.hasColumn("access_token_signing_alg", in: "clients", db) {
            try await db.alter(table: "clients")
                .column("access_token_signing_alg", type: .text, .notNull, .default(SQLLiteral.string("RS256")))
                .run()
        }
    }
}
