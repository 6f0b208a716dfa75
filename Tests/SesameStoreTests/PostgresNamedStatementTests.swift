import Foundation
import SQLKit
import Testing
@testable import SesameStore
import StoreTesting

/// The store's statement templates run as named prepared statements on PostgreSQL
/// (``PostgresNamedStatement``): parsed once per connection, with parameter types that never
/// change under a name.
@Suite(
    "Store: PostgreSQL prepared statements",
    .enabled(if: StoreBackend.postgresURL != nil, "no PostgreSQL here (set SESAME_TEST_DATABASE_URL)"))
struct PostgresNamedStatementTests {
    /// A store on a sandbox database with one pooled connection, so the session that reads
    /// `pg_prepared_statements` is the one the templates ran on.
    private func withOneConnection(_ body: (SQLIdentityStore) async throws -> Void) async throws {
        let sandbox = try await StoreSandbox.make(.postgres)
        do {
            let url = try #require(sandbox.postgres)
            let store = try await SQLIdentityStore.open(.postgres(url, poolSize: 1), logger: StoreSamples.logger)
            do {
                try await body(store)
                try await store.close()
            } catch {
                try? await store.close()
                throw error
            }
        } catch {
            await sandbox.dispose()
            throw error
        }
        await sandbox.dispose()
    }

    /// The prepared statements of the store's one connection whose text is `sql`.
    private func prepared(_ sql: String, on store: SQLIdentityStore) async throws -> [String] {
        let rows = try await store.database.withSession { session in
            try await session.raw("SELECT name, statement FROM pg_prepared_statements").all()
        }
        return try rows.filter { try $0.decode(column: "statement", as: String.self) == sql }
            .map { try $0.decode(column: "name", as: String.self) }
    }

    @Test("a template is prepared once under a name and every later call reuses it with its own values")
    func preparedOnce() async throws {
        try await withOneConnection { store in
            let db = store.database
            var sql = ""
            for value in ["one", "two", "three"] {
                let filled = store.statement("test.prepared_echo", [value]) { slot in
                    db.select().column(SQLAlias(slot[0], as: SQLIdentifier("echo"))).query
                }
                sql = try #require(filled.query as? SerializedSQL).sql
                let row = try #require(try await filled.first())
                #expect(try row.decode(column: "echo", as: String.self) == value)
            }
            let names = try await prepared(sql, on: store)
            #expect(names.count == 1)
            #expect(names.allSatisfy { $0.hasPrefix("sesame_") })
        }
    }

    @Test("a NULL and a value of another type in the same place run as two statements, each with its own types")
    func typesInTheName() async throws {
        try await withOneConnection { store in
            let db = store.database
            var sql = ""
            func echo(_ value: any Encodable & Sendable) async throws -> String? {
                let filled = store.statement("test.typed_echo", [value]) { slot in
                    db.select().column(SQLAlias(CastToText(value: slot[0]), as: SQLIdentifier("echo"))).query
                }
                sql = try #require(filled.query as? SerializedSQL).sql
                return try await filled.first()?.decode(column: "echo", as: String?.self)
            }
            // The first use prepares `$1` as text (inferred from the cast, the value being NULL);
            // an 8-byte integer sent under that name would be read as text.
            #expect(try await echo(String?.none) == nil)
            #expect(try await echo(Int64(1_234_567)) == "1234567")
            #expect(try await echo("text") == "text")
            #expect(try await echo(Int64(-5)) == "-5")
            let names = try await prepared(sql, on: store)
            #expect(Set(names).count == 3, "one statement each for NULL, int8 and text: \(names)")
        }
    }

    @Test("a column added under a running server (a migration during a rolling deploy): the prepared SELECT * is prepared again and returns it")
    func schemaChange() async throws {
        try await withOneConnection { store in
            let db = store.database
            try await db.raw("CREATE TABLE test_widgets (id TEXT PRIMARY KEY, name TEXT)").run()
            try await db.raw("INSERT INTO test_widgets (id, name) VALUES ('w1', 'first')").run()
            func widget() async throws -> (any SQLRow)? {
                try await store.selectAll(from: "test_widgets", where: "id", equals: "w1").first()
            }
            #expect(try await widget()?.decode(column: "name", as: String.self) == "first")
            try await db.raw("ALTER TABLE test_widgets ADD COLUMN colour TEXT DEFAULT 'red'").run()
            let row = try #require(try await widget())
            #expect(try row.decode(column: "colour", as: String.self) == "red")
            #expect(try await widget() != nil, "the new name serves later calls")
        }
    }

    @Test("the refresh rotation runs prepared, and a value without a direct encoding runs as an unnamed statement")
    func rotationAndFallback() async throws {
        try await withOneConnection { store in
            let now = StoreSamples.now()
            let first = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(3600))
            try await store.insertRefreshToken(first)
            let successor = StoreSamples.successor(at: now)
            guard case .redeemed = try await store.rotateRefreshToken(digest: first.tokenDigest, into: successor) else {
                Issue.record("the rotation did not redeem the token")
                return
            }
            #expect(try await prepared(store.refreshRotation.sql, on: store).count == 1)

            struct Structured: Codable, Sendable { let a: Int }
            let db = store.database
            let filled = store.statement("test.structured", [Structured(a: 7)]) { slot in
                db.select().column(SQLAlias(slot[0], as: SQLIdentifier("value"))).query
            }
            #expect(PostgresNamedStatement(filled.query) == nil)
            #expect(try await filled.first() != nil)
        }
    }
}

/// `CAST(value AS TEXT)`: a parameter whose type PostgreSQL infers as text.
private struct CastToText: SQLExpression {
    let value: SQLBind

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write("CAST(")
        value.serialize(to: &serializer)
        serializer.write(" AS TEXT)")
    }
}
