import Foundation
import Logging
import PostgresNIO
import SesameStore
import Testing

/// The databases the store and server suites run against: the embedded SQLite file always, and
/// PostgreSQL when `SESAME_TEST_DATABASE_URL` names a server (`.ci/run` starts a throw-away
/// cluster with `Tests/PostgreSQL/cluster.sh`). Parameterized tests take ``available``.
public enum StoreBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    public var testDescription: String { rawValue }

    /// The PostgreSQL server of the test run, if any.
    public static let postgresURL: DatabaseURL? = ProcessInfo.processInfo.environment["SESAME_TEST_DATABASE_URL"]
        .flatMap { try? DatabaseURL(parsing: $0) }

    /// SQLite, and PostgreSQL when the run has one.
    public static let available: [StoreBackend] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]

    /// In CI (`CI=true`) the PostgreSQL variants must run, so a missing server is a failure there.
    public static let postgresRequired = ProcessInfo.processInfo.environment["CI"] == "true"
}

/// Throw-away PostgreSQL databases, one per sandbox, created and dropped over the test
/// server's own connection (the URL's database is the maintenance database).
enum PostgresTestDatabase {
    /// A new database with every migration applied: a copy of ``migratedTemplate``. A copy costs
    /// about 70 ms of CPU; creating a database and migrating it cost about 400 ms, for each of the
    /// suite's PostgreSQL sandboxes.
    static func create(on base: DatabaseURL) async throws -> DatabaseURL {
        let name = "sesame_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let template = try await migratedTemplate.value
        try await run("CREATE DATABASE \(name) TEMPLATE \(template)", on: base)
        var url = base
        url.database = name
        return url
    }

    static func drop(_ url: DatabaseURL, base: DatabaseURL) async {
        try? await run("DROP DATABASE IF EXISTS \(url.database) WITH (FORCE)", on: base)
    }

    static func run(_ statement: String, on url: DatabaseURL) async throws {
        _ = try await names(statement, on: url)
    }

    /// The first column of each row `statement` returns, as text.
    static func names(_ statement: String, on url: DatabaseURL) async throws -> [String] {
        let configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password,
            database: url.database, tls: .disable)
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 1, logger: StoreSamples.logger)
        do {
            var names: [String] = []
            let rows = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: StoreSamples.logger)
            for try await name in rows.decode(String.self) { names.append(name) }
            try await connection.close()
            return names
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

extension PostgresTestDatabase {
    /// The database every sandbox's is copied from (`CREATE DATABASE … TEMPLATE`): made once per
    /// test process, by the first sandbox, by running the migrations on an empty database, so
    /// migrating from nothing is still what every PostgreSQL test stands on. Named after the
    /// process; templates of processes that have ended (a developer's cluster outlives a run) are
    /// dropped when a new one is made.
    static let migratedTemplate = Task { () async throws -> String in
        let base = try #require(StoreBackend.postgresURL, "no PostgreSQL server: set SESAME_TEST_DATABASE_URL")
        let prefix = "sesame_template_"
        for stale in try await names("SELECT datname FROM pg_database WHERE datname LIKE '\(prefix)%'", on: base) {
            let pid = stale.dropFirst(prefix.count).prefix { $0.isNumber }
            if let pid = Int32(pid), pid != getpid(), kill(pid, 0) != 0 {
                try? await run("DROP DATABASE IF EXISTS \(stale) WITH (FORCE)", on: base)
            }
        }
        let name = prefix + "\(getpid())_" + UUID().uuidString.prefix(8).lowercased()
        try await run("CREATE DATABASE \(name)", on: base)
        var url = base
        url.database = name
        let store = try await SQLIdentityStore.open(.postgres(url, poolSize: 1), logger: StoreSamples.logger)
        try await store.close()
        return name
    }
}
