import Foundation
import SQLKit
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer
@testable import SesameStore

/// `/health/live` never depends on the database; `/health/ready` answers 200 only when the
/// database answers and its schema is the one this Sesame runs.
@Suite("Health: liveness and readiness")
struct HealthTests {
    @Test("live is 200; ready is 200 with the schema version, and 503 with the reason when a migration is missing", arguments: StoreBackend.available)
    func liveAndReady(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let client = server.client()
            for path in ["/health", "/health/live"] {
                let live = try await client.get(path)
                #expect(live.status == 200 && live.jsonObject["status"] as? String == "ok", "\(path)")
                #expect(live.header("Cache-Control") == "no-store")
            }
            let latest = try #require(StoreMigrations.all.map(\.version).max())
            let ready = try await client.get("/health/ready")
            #expect(ready.status == 200)
            #expect(ready.jsonObject["status"] as? String == "ready")
            #expect(ready.jsonObject["schema_version"] as? Int == latest)

            let store = try #require(server.store as? SQLIdentityStore)
            try await store.database.delete(from: "schema_migrations").where("version", .equal, latest).run()
            let notReady = try await client.get("/health/ready")
            #expect(notReady.status == 503)
            #expect(notReady.jsonObject["status"] as? String == "unavailable")
            #expect((notReady.jsonObject["reason"] as? String)?.contains("migration \(latest)") == true, "\(notReady.text)")
            #expect(try await client.get("/health/live").status == 200, "liveness does not depend on the database")
        }
    }
}
