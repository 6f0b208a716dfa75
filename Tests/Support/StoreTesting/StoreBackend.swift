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
    static func create(on base: DatabaseURL) async throws -> DatabaseURL {
        let name = "sesame_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await run("CREATE DATABASE \(name)", on: base)
        var url = base
        url.database = name
        return url
    }

    static func drop(_ url: DatabaseURL, base: DatabaseURL) async {
        try? await run("DROP DATABASE IF EXISTS \(url.database) WITH (FORCE)", on: base)
    }

    static func run(_ statement: String, on url: DatabaseURL) async throws {
        let configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password,
            database: url.database, tls: .disable)
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 1, logger: StoreSamples.logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: StoreSamples.logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
