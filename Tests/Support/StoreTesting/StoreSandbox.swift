import Foundation
import Logging
import SesameProtocol
import SesameStore
import Testing

/// A unique temporary data directory (the master key, and the SQLite file) and, for the
/// PostgreSQL backend, a database of its own. Always call ``remove()`` (SQLite), ``dispose()``, or let
/// ``withSandboxStore(_:_:)`` clean up.
public struct StoreSandbox: Sendable {
    public let directory: URL
    public let backend: StoreBackend
    /// The sandbox's own PostgreSQL database (``StoreBackend/postgres`` only).
    public let postgres: DatabaseURL?

    /// A SQLite sandbox (synchronous: nothing to create on a server).
    public static func make() throws -> StoreSandbox {
        StoreSandbox(directory: try makeDirectory(), backend: .sqlite, postgres: nil)
    }

    /// A sandbox on `backend`, its database with every migration applied: a copy of a template
    /// migrated once per test process (for PostgreSQL a new database on the test server).
    /// ``make()`` gives an empty SQLite sandbox.
    public static func make(_ backend: StoreBackend) async throws -> StoreSandbox {
        switch backend {
        case .sqlite:
            let sandbox = try make()
            try FileManager.default.copyItem(at: try await migratedSQLiteTemplate.value, to: sandbox.databaseURL)
            return sandbox
        case .postgres:
            let base = try #require(StoreBackend.postgresURL, "no PostgreSQL server: set SESAME_TEST_DATABASE_URL")
            let database = try await PostgresTestDatabase.create(on: base)
            return StoreSandbox(directory: try makeDirectory(), backend: .postgres, postgres: database)
        }
    }

    private static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    public var dataDirectory: DataDirectory { DataDirectory(url: directory) }
    public var databaseURL: URL { dataDirectory.databaseURL }

    /// Where the sandbox's store lives.
    public var location: StoreLocation {
        if let postgres { return .postgres(postgres, poolSize: 6) }
        return .sqlite(dataDirectory)
    }

    /// Opens a store on the sandbox (another one, for "another process", when called again).
    public func open(clientCacheLifetime: Duration = .seconds(2)) async throws -> SQLIdentityStore {
        try await SQLIdentityStore.open(location, logger: StoreSamples.logger, clientCacheLifetime: clientCacheLifetime)
    }

    /// Runs `statement` as the test server's superuser on its maintenance database (PostgreSQL
    /// only): e.g. to cut the sandbox's database off and bring it back.
    public func administer(_ statement: String) async throws {
        let base = try #require(StoreBackend.postgresURL, "no PostgreSQL server")
        try await PostgresTestDatabase.run(statement, on: base)
    }

    /// Deletes the directory and drops the PostgreSQL database.
    public func dispose() async {
        remove()
        if let postgres, let base = StoreBackend.postgresURL {
            await PostgresTestDatabase.drop(postgres, base: base)
        }
    }

    /// Deletes the directory.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh store on `backend` in a fresh sandbox; closes and deletes both
/// afterwards.
public func withSandboxStore<T>(
    _ backend: StoreBackend = .sqlite, _ body: (SQLIdentityStore, StoreSandbox) async throws -> T
) async throws -> T {
    let sandbox = try await StoreSandbox.make(backend)
    let store: SQLIdentityStore
    do {
        store = try await sandbox.open()
    } catch {
        await sandbox.dispose()
        throw error
    }
    do {
        let result = try await body(store, sandbox)
        try await store.close()
        await sandbox.dispose()
        return result
    } catch {
        try? await store.close()
        await sandbox.dispose()
        throw error
    }
}

/// A SQLite file with every migration applied, made once per test process (by the first
/// sandbox) by migrating an empty file, and copied into each sandbox of ``StoreSandbox/make(_:)``
/// (about 50 ms of CPU saved per sandbox in a debug build; the suite makes hundreds).
private let migratedSQLiteTemplate = Task { () async throws -> URL in
    let directory = DataDirectory(url: FileManager.default.temporaryDirectory
        .appendingPathComponent("sesame-sqlite-template-\(UUID().uuidString)"))
    let store = try await SQLIdentityStore.open(.sqlite(directory), logger: StoreSamples.logger)
    try await store.close()
    return directory.databaseURL
}
