import SesameProtocol
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// SQLKit over PostgresNIO's `PostgresClient` (its connection pool): every statement leases a
/// connection for its own duration. A template's statement runs prepared under a name
/// (``PostgresNamedStatement``), any other as an unnamed statement. The store needs nothing more, because every write that must
/// be atomic is one statement (``SQLIdentityStore``). Statements are never logged with their
/// bound values (`queryLogLevel` is `nil`): binds hold digests, password hashes and sealed keys.
struct PostgresClientDatabase: SQLDatabase {
    let client: PostgresClient
    let logger: Logger
    let eventLoop: any EventLoop
    /// Pool connections in use and the wait for one (``StoreMetrics``).
    var metrics: StoreMetrics = .off
    /// How long a statement waits for a pooled connection before the database counts as
    /// unavailable (the pool keeps retrying in the background; the request gets a 503): the
    /// URL's `connect_timeout`, at least 10 s.
    var leaseTimeout: Duration = .seconds(10)
    /// How long a statement may take in all, its wait for a connection included
    /// (``StatementDeadline``): generous for the purge's large deletes, but finite.
    var statementTimeout: Duration = .seconds(120)

    var dialect: any SQLDialect { PostgresDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let client = client
        let pool = metrics.handles.map(PoolGauge.init)
        let named = PostgresNamedStatement(query)
        let logger = logger
        try await StatementDeadline(lease: leaseTimeout, statement: statementTimeout).run { leased in
            let flag = LeaseFlag()
            do {
                try await client.withConnection { connection in
                    flag.mark()
                    leased(closed: { connection.isClosed })
                    pool?.leased()
                    defer { pool?.released() }
                    try Self.requireOpen(connection)
                    if let named {
                        try await named.run(on: connection, logger: logger, onRow)
                    } else {
                        try await connection.sql(queryLogLevel: nil).execute(sql: query, onRow)
                    }
                }
            } catch {
                throw Self.classify(error, leased: flag.isSet)
            }
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let statementTimeout = statementTimeout
        let leased = LeaseFlag()
        let pool = metrics.handles.map(PoolGauge.init)
        do {
            return try await client.withConnection { connection in
                leased.mark()
                pool?.leased()
                defer { pool?.released() }
                try Self.requireOpen(connection)
                return try await closure(
                    DeadlineSessionDatabase(
                        base: connection.sql(queryLogLevel: nil), statementTimeout: statementTimeout,
                        closed: { connection.isClosed }))
            }
        } catch {
            throw Self.classify(error, leased: leased.isSet)
        }
    }

    /// A leased connection that closed before the pool learnt it would take a statement and never
    /// answer (``StatementDeadline``): it is refused before anything is written to it, for a
    /// single statement and for a session (the advisory locks of the purge and migrations) alike.
    private static func requireOpen(_ connection: PostgresConnection) throws {
        guard !connection.isClosed else {
            throw StoreError.unavailable(reason: "the pooled PostgreSQL connection had closed")
        }
    }

    /// A statement the server refused (a constraint, a syntax error) is passed on as it is.
    /// No connection (`leased` is `false`: the pool could not open one), a connection lost
    /// mid-statement, or a server shutting down or out of connections (SQLSTATE class 08,
    /// 57P01–57P03, 53300) means the database is unavailable, which the server answers with 503
    /// until it is back.
    static func classify(_ error: any Error, leased: Bool) -> any Error {
        if error is StoreError || error is CancellationError { return error }
        if leased, let error = error as? PSQLError, error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            let unavailable = state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state)
            if !unavailable { return error }
        }
        return StoreError.unavailable(reason: "PostgreSQL cannot be reached: \(PostgresBackend.describe(error))")
    }
}

/// Whether a statement got its pooled connection (set once, read from the timer task).
private final class LeaseFlag: Sendable {
    private let state = LockedState(false)
    func mark() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}

/// One lease of a pooled connection in ``StoreMetrics``: the wait from the request to the
/// lease, and the connection counted in use until it is released.
private struct PoolGauge: Sendable {
    let metrics: StoreMetrics.Handles
    let requested = ContinuousClock.now

    init(_ metrics: StoreMetrics.Handles) { self.metrics = metrics }

    func leased() {
        metrics.connectionWait.record(duration: ContinuousClock.now - requested)
        metrics.connectionsInUse.increment()
    }

    func released() { metrics.connectionsInUse.decrement() }
}
