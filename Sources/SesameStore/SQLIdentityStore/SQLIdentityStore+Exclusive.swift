import Crypto
import Foundation
import SQLKit

extension SQLIdentityStore {
    /// PostgreSQL: `pg_try_advisory_lock` on one pooled connection for the duration of `body`
    /// (PostgreSQL 17 §9.28.10), keyed by the first 8 bytes of SHA-256 of `job`. Another
    /// process trying the same job meanwhile skips it. SQLite: `body` runs (one process).
    public func runExclusively(_ job: String, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        guard database.dialect.name == "postgresql" else {
            try await body()
            return true
        }
        let key = Self.advisoryLockKey(job)
        return try await database.withSession { session in
            let acquired = try await session.raw("SELECT pg_try_advisory_lock(\(bind: key)) AS acquired")
                .first(decodingColumn: "acquired", as: Bool.self) ?? false
            guard acquired else { return false }
            do {
                try await body()
            } catch {
                _ = try? await session.raw("SELECT pg_advisory_unlock(\(bind: key))").run()
                throw error
            }
            try await session.raw("SELECT pg_advisory_unlock(\(bind: key))").run()
            return true
        }
    }

    /// Runs `body` on one connection while holding a session advisory lock on `key`
    /// (PostgreSQL; waits for it), so statements that read-then-write the same rows run one
    /// after another, each seeing what the previous one committed. SQLite runs one writer at a
    /// time already: `body` runs on the shared database.
    func serializedPerKey(_ key: String, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        guard database.dialect.name == "postgresql" else {
            try await body(database)
            return
        }
        let lock = Self.advisoryLockKey(key)
        try await database.withSession { session in
            try await session.raw("SELECT pg_advisory_lock(\(bind: lock))").run()
            do {
                try await body(session)
            } catch {
                _ = try? await session.raw("SELECT pg_advisory_unlock(\(bind: lock))").run()
                throw error
            }
            try await session.raw("SELECT pg_advisory_unlock(\(bind: lock))").run()
        }
    }

    static func advisoryLockKey(_ job: String) -> Int64 {
        SHA256.hash(data: Data(("sesame." + job).utf8)).prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}
