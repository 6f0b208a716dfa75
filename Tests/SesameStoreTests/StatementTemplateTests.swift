import Foundation
import SQLKit
import Testing
@testable import SesameStore
import StoreTesting

/// Statements serialized once and filled with fresh values (the refresh rotation's path).
@Suite("Store: statement templates")
struct StatementTemplateTests {
    @Test("values land in their slots whatever order the statement binds them, and a slot may repeat")
    func slotOrder() async throws {
        try await withSandboxStore { store, _ in
            let db = store.database
            // Binds are written b, a, b: the text has three placeholders for two values.
            let template = StatementTemplate(name: "test.slots", database: db, slots: 2) { slot in
                db.select()
                    .column(SQLAlias(slot[1], as: SQLIdentifier("first")))
                    .column(SQLAlias(slot[0], as: SQLIdentifier("second")))
                    .column(SQLAlias(slot[1], as: SQLIdentifier("third")))
                    .query
            }
            #expect(template.order == [1, 0, 1])
            for (a, b) in [("x", "y"), ("left", "right")] {
                let row = try #require(try await template.filled(with: [a, b], on: db).first())
                #expect(try row.decode(column: "first", as: String.self) == b)
                #expect(try row.decode(column: "second", as: String.self) == a)
                #expect(try row.decode(column: "third", as: String.self) == b)
            }
        }
    }

    @Test("a named template is built on its first use only and serves every later call with its own values")
    func namedTemplates() async throws {
        try await withSandboxStore { store, _ in
            let db = store.database
            var builds = 0
            for value in ["one", "two", "three"] {
                let row = try #require(
                    try await store.statement("test.echo", [value]) { slot in
                        builds += 1
                        return db.select().column(SQLAlias(slot[0], as: SQLIdentifier("echo"))).query
                    }.first())
                #expect(try row.decode(column: "echo", as: String.self) == value)
            }
            #expect(builds == 1)
        }
    }

    @Test("the rotation template matches the statement the builders write")
    func rotationText() async throws {
        try await withSandboxStore { store, _ in
            let sql = store.refreshRotation.sql
            #expect(sql.hasPrefix("INSERT INTO \"refresh_tokens\""))
            #expect(sql.contains("ON CONFLICT DO NOTHING RETURNING"))
            #expect(sql.contains("RETURNING"))
            // successor digest, now (issued_at), expiry, presented digest, now (expiry check)
            #expect(store.refreshRotation.order == [0, 1, 2, 3, 1])
        }
    }
}
