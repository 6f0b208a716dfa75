import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import SQLKit

/// Everything PostgreSQL-specific about opening the store: PostgresNIO's connection pool
/// (`PostgresClient`), sized by `--database-pool-size`, with TLS as the URL's `sslmode` says.
/// Owns the pool's run task and the change listener (``PostgresChangeListener``); ``close()``
/// ends both.
struct PostgresBackend: Sendable {
    let database: any SQLDatabase
    private let runner: Task<Void, Never>
    private let listener: Task<Void, Never>

    /// Checks that the database answers (``probe(_:logger:)``), so a wrong host, password or
    /// database name fails here, with one clear line, instead of at the first request; then
    /// starts the pool.
    /// - Parameter changes: hears what other processes announce (``StoreChange``).
    static func open(
        _ url: DatabaseURL, poolSize: Int, logger: Logger, metrics: StoreMetrics = .off,
        changes: @escaping @Sendable (StoreChange) -> Void = { _ in }
    ) async throws -> PostgresBackend {
        try await probe(url, logger: logger)
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password,
            database: url.database, tls: try tls(url))
        configuration.options.maximumConnections = max(1, poolSize)
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = .seconds(Int64(url.connectTimeout))
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return PostgresBackend(
            database: PostgresClientDatabase(
                client: client, logger: logger, eventLoop: PostgresClient.defaultEventLoopGroup.any(), metrics: metrics,
                leaseTimeout: .seconds(max(10, url.connectTimeout))),
            runner: Task { await client.run() },
            listener: Task { [configuration = try connectionConfiguration(url)] in
                await PostgresChangeListener.run(configuration, logger: logger, deliver: changes)
            })
    }

    private init(database: any SQLDatabase, runner: Task<Void, Never>, listener: Task<Void, Never>) {
        self.database = database
        self.runner = runner
        self.listener = listener
    }

    /// Stops the pool (in-flight statements finish, idle connections close) and the listener.
    func close() async {
        listener.cancel()
        runner.cancel()
        await listener.value
        await runner.value
    }

    /// One direct connection before the pool starts: the pool reports a failed connection only
    /// as a tripped circuit breaker, while this says what the server answered (a wrong password,
    /// an unknown database) or why there was no answer (connection refused, TLS).
    private static func probe(_ url: DatabaseURL, logger: Logger) async throws {
        let configuration = try connectionConfiguration(url)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw StoreError.unavailable(reason: "cannot use PostgreSQL at \(url): \(describe(error)). Check that the server runs and accepts connections, and the user, password and database name in --database (SESAME_DATABASE_URL)")
        }
    }

    /// One connection outside the pool, as the URL says.
    static func connectionConfiguration(_ url: DatabaseURL) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        if url.tls == .disable {
            tls = .disable
        } else {
            let context = try NIOSSLContext(configuration: try tlsConfiguration(url))
            tls = url.tls == .prefer ? .prefer(context) : .require(context)
        }
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password,
            database: url.database, tls: tls)
        configuration.options.connectTimeout = .seconds(Int64(url.connectTimeout))
        return configuration
    }

    static func tlsConfiguration(_ url: DatabaseURL) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if url.tls == .verifyFull {
            configuration.certificateVerification = .fullVerification
            if let file = url.certificateAuthorityFile {
                guard FileManager.default.isReadableFile(atPath: file) else {
                    throw StoreError.unavailable(reason: "the sslrootcert file \(file) cannot be read")
                }
                configuration.trustRoots = .file(file)
            }
        } else {
            // libpq's prefer and require encrypt without verifying the certificate.
            configuration.certificateVerification = .none
        }
        return configuration
    }

    static func tls(_ url: DatabaseURL) throws -> PostgresClient.Configuration.TLS {
        switch url.tls {
        case .disable: return .disable
        case .prefer: return .prefer(try tlsConfiguration(url))
        case .require, .verifyFull: return .require(try tlsConfiguration(url))
        }
    }

    /// What went wrong, from the server's own message where there is one (never the password).
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + code
            }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
