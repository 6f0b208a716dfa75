import StoreTesting
import Testing

/// Says whether the PostgreSQL variants of the store and server suites run here. On a
/// developer's machine without a server they are left out (this test is skipped, with the
/// reason); in CI (`CI=true`) `.ci/run` starts a cluster, and a missing one fails here.
@Suite("PostgreSQL for the store and server suites")
struct PostgreSQLAvailabilityTests {
    @Test(
        "the PostgreSQL variants run (SESAME_TEST_DATABASE_URL names a server)",
        .enabled(
            if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired,
            "no PostgreSQL here: the store and server suites run on SQLite only. Start one with `eval \"$(bash Tests/PostgreSQL/cluster.sh start)\"` to run both."))
    func available() {
        #expect(StoreBackend.postgresURL != nil, "CI must run the PostgreSQL variants: .ci/run starts a cluster and sets SESAME_TEST_DATABASE_URL")
        #expect(StoreBackend.available.contains(.postgres))
    }
}
