import Foundation
import Logging
import Metrics
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SesameProtocol

/// The one ``IdentityStore`` implementation, written against SQLKit's `any SQLDatabase` so the
/// same queries serve SQLite (the embedded default, ``openSQLite(at:logger:)``) and PostgreSQL
/// later (``init(database:logger:onClose:)``).
///
/// Portability rules ("nothing may assume SQLite"): queries use SQLKit builders only
/// (hot-path ones serialized once by the database's dialect, ``StatementTemplate``);
/// column types are `TEXT`, `BIGINT`, `DOUBLE PRECISION` (epoch seconds) and `BOOLEAN`;
/// arrays and claims are JSON in `TEXT`. Dialect differences (opening, pragmas, constraint
/// error recognition) live in ``SQLiteBackend`` and ``StoreDialect``.
///
/// Concurrency: no multi-statement transactions. Every write that must be atomic is a single
/// conditional statement (see `redeemAuthorizationCode(digest:now:)`).
public final class SQLIdentityStore: IdentityStore {
    let database: any SQLDatabase
    let logger: Logger
    let clientCache: ClientRecordCache
    /// The statements of the per-request paths, serialized once (``StatementTemplateCache``).
    let templates = StatementTemplateCache()
    /// Decoded `authentication` columns of refresh tokens (``DecodedJSONCache``).
    let authentications = DecodedJSONCache<AuthenticationContext>()
    /// Who hears changes announced by other processes (``StoreChange``).
    let changes: StoreChangeRelay
    /// Whether writes announce themselves to other processes (PostgreSQL's `NOTIFY`).
    let announcesChanges: Bool
    private let onClose: @Sendable () async throws -> Void
    private let closed = LockedState(false)

    /// Wraps an open database and runs the migrations before returning.
    /// - Parameter onClose: releases whatever the caller created for `database` (connections,
    ///   pools, threads); called once by ``close()``.
    /// - Parameter clientCacheLifetime: how long a client record read from the database is
    ///   reused (``ClientRecordCache``); `.zero` reads it every time.
    /// - Parameter metrics: statement latency and statements in flight (``StoreMetrics``).
    public convenience init(
        database: any SQLDatabase, logger: Logger, clientCacheLifetime: Duration = .seconds(2),
        metrics: StoreMetrics = .off, onClose: @escaping @Sendable () async throws -> Void = {}
    ) {
        self.init(
            database: database, logger: logger, clientCacheLifetime: clientCacheLifetime, metrics: metrics,
            changes: StoreChangeRelay(), onClose: onClose)
    }

    init(
        database: any SQLDatabase, logger: Logger, clientCacheLifetime: Duration, metrics: StoreMetrics,
        changes: StoreChangeRelay, onClose: @escaping @Sendable () async throws -> Void
    ) {
        let handles = metrics.handles ?? metrics.labelled(metrics.backend).handles
        self.database = handles.map { MeasuredDatabase(base: database, metrics: $0) } ?? database
        self.logger = logger
        let cache = ClientRecordCache(lifetime: clientCacheLifetime)
        self.clientCache = cache
        self.changes = changes
        self.announcesChanges = database.dialect.name == "postgresql"
        self.onClose = onClose
        changes.add { change in
            switch change {
            case .client(let id): cache.forget(id)
            case .everything: cache.forgetAll()
            case .signingKeys: break
            }
        }
    }

    /// Opens the store at `location` and runs the migrations: the SQLite file of a data directory
    /// (created if needed) or a PostgreSQL database (which must exist; its tables are created).
    /// - Parameter migrate: `false` opens without migrating (`sesame db status`); the store is
    ///   then only good for ``schemaStatus()``.
    /// - Parameter metrics: where the store's metrics go (``StoreMetrics``; none by default).
    public static func open(
        _ location: StoreLocation, logger: Logger, clientCacheLifetime: Duration = .seconds(2), migrate: Bool = true,
        metrics: StoreMetrics = .off
    ) async throws -> SQLIdentityStore {
        switch location {
        case .sqlite(let directory):
            try directory.prepare()
            return try await openSQLite(
                at: directory.databaseURL, logger: logger, clientCacheLifetime: clientCacheLifetime, migrate: migrate,
                metrics: metrics)
        case .postgres(let url, let poolSize):
            let metrics = metrics.labelled("postgres")
            let changes = StoreChangeRelay()
            let backend = try await PostgresBackend.open(
                url, poolSize: poolSize, logger: logger, metrics: metrics, changes: { changes.deliver($0) })
            let store = SQLIdentityStore(
                database: backend.database, logger: logger, clientCacheLifetime: clientCacheLifetime, metrics: metrics,
                changes: changes, onClose: { await backend.close() })
            do {
                if migrate { try await store.migrate() }
            } catch {
                await backend.close()
                throw error
            }
            return store
        }
    }

    /// Opens (creating if needed) the SQLite file at `url` with WAL journaling, a busy timeout
    /// and foreign keys, and runs the migrations.
    public static func openSQLite(
        at url: URL, logger: Logger, clientCacheLifetime: Duration = .seconds(2), migrate: Bool = true,
        metrics: StoreMetrics = .off
    ) async throws -> SQLIdentityStore {
        let backend = try await SQLiteBackend.open(at: url, logger: logger)
        let store = SQLIdentityStore(
            database: backend.database, logger: logger, clientCacheLifetime: clientCacheLifetime,
            metrics: metrics.labelled("sqlite"),
            onClose: { try await backend.close() })
        do {
            if migrate { try await store.migrate() }
        } catch {
            try? await backend.close()
            throw error
        }
        return store
    }

    /// Calls `observer` with every change another process announces (PostgreSQL; on SQLite
    /// never), and with ``StoreChange/everything`` when some may have been missed.
    public func observeChanges(_ observer: @escaping @Sendable (StoreChange) -> Void) {
        changes.add(observer)
    }

    /// Tells the deployment's other processes about `change` (`NOTIFY sesame_changes`); best
    /// effort: a failure is logged, and their caches still expire by themselves.
    func announce(_ change: StoreChange) async {
        guard announcesChanges else { return }
        do {
            try await database.raw("SELECT pg_notify(\(bind: PostgresChangeListener.channel), \(bind: change.payload))").run()
        } catch {
            logger.warning("could not announce a change to the other processes", metadata: ["error": "\(error)"])
        }
    }

    /// Applies pending versioned migrations (idempotent).
    public func migrate() async throws {
        try await StoreMigrations.run(on: database, logger: logger)
    }

    /// Releases the connection, its thread pool and event loop. Further calls do nothing.
    public func close() async throws {
        let alreadyClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        if !alreadyClosed { try await onClose() }
    }
}

extension SQLIdentityStore {
    /// The template `name` (built by `build` from one slot per value on first use) filled with
    /// `values`: the per-request statements skip SQLKit's serializer after their first call.
    func statement(
        _ name: String, _ values: [any Encodable & Sendable], build: ([SQLBind]) -> any SQLExpression
    ) -> FilledStatement {
        templates.template(name, database: database, slots: values.count, build: build).filled(with: values, on: database)
    }

    /// `SELECT * FROM table WHERE column = value` as a template (a row found by its key).
    func selectAll(from table: String, where column: String, equals value: String) -> FilledStatement {
        statement("\(table).by_\(column)", [value]) { slots in
            database.select().column("*").from(table).where(SQLIdentifier(column), .equal, slots[0]).query
        }
    }
}
