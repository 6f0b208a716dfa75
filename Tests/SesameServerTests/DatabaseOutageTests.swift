import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Losing the database while the server runs: requests that need it get 503
/// `temporarily_unavailable` with `Retry-After` (never a crash or a 500), readiness says so,
/// liveness does not, and everything works again once the database is back.
@Suite(
    "PostgreSQL lost and back while the server runs",
    .enabled(
        if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired,
        "no PostgreSQL here (SESAME_TEST_DATABASE_URL); CI runs this"))
struct DatabaseOutageTests {
    @Test("503 temporarily_unavailable while the database refuses connections; recovery when it is back")
    func outageAndRecovery() async throws {
        try await withTestServer(.postgres) { server in
            let client = server.client()
            let (tokens, _) = try await OAuthFlow(browser: client).tokens()
            let refresh = try #require(tokens.refreshToken)
            let database = try #require(server.sandbox.postgres?.database)

            try await server.sandbox.administer("ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
            try await server.sandbox.administer(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'")

            let refused = try await client.refresh(refresh)
            #expect(refused.status == 503, "\(refused.text)")
            #expect(refused.header("Retry-After") == "5")
            let error = try refused.json(APIError.self)
            #expect(error.error == "temporarily_unavailable")
            #expect(error.code == .temporarilyUnavailable)
            #expect(try await client.get("/health/ready").status == 503)
            #expect(try await client.get("/health/live").status == 200)

            try await server.sandbox.administer("ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
            var recovered = false
            let deadline = ContinuousClock.now + .seconds(60)
            while !recovered && ContinuousClock.now < deadline {
                recovered = try await client.get("/health/ready").status == 200
                if !recovered { try await Task.sleep(for: .milliseconds(250)) }
            }
            #expect(recovered, "the server did not recover within 60 s of the database coming back")
            let rotated = try await client.refresh(refresh)
            #expect(rotated.status == 200, "the refused rotation left the token usable: \(rotated.text)")
        }
    }
}
