import Foundation
import Logging
import SesameProtocol
import SesameStore

/// A unique temporary data directory holding a real SQLite store. Always call ``remove()``.
public struct StoreSandbox: Sendable {
    public let directory: URL

    public static func make() throws -> StoreSandbox {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return StoreSandbox(directory: directory)
    }

    public var dataDirectory: DataDirectory { DataDirectory(url: directory) }
    public var databaseURL: URL { dataDirectory.databaseURL }

    public func open(clientCacheLifetime: Duration = .seconds(2)) async throws -> SQLIdentityStore {
        try await SQLIdentityStore.openSQLite(
            at: databaseURL, logger: StoreSamples.logger, clientCacheLifetime: clientCacheLifetime)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh store in a fresh directory; closes and deletes both afterwards.
public func withSandboxStore<T>(
    _ body: (SQLIdentityStore, StoreSandbox) async throws -> T
) async throws -> T {
    let sandbox = try StoreSandbox.make()
    defer { sandbox.remove() }
    let store = try await sandbox.open()
    do {
        let result = try await body(store, sandbox)
        try await store.close()
        return result
    } catch {
        try? await store.close()
        throw error
    }
}

