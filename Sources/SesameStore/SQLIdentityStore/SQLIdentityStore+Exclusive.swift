import Crypto
import Foundation
import SQLKit

extension SQLIdentityStore {
    /// PostgreSQL: `pg_try_advisory_lock` on one pooled connection for the duration of `body`
    /// (PostgreSQL 17 §9.28.10), keyed by the first 8 bytes of SHA-256 of `job`. Another
    /// process trying the same job meanwhile skips it. SQLite: `body` runs (one process).
    public func runExclusively(_ job: String, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        try await withAdvisoryLock(job, waiting: false) { _ in try await body() }
    }

    /// Runs `body` on one connection while holding a session advisory lock on `key`
    /// (PostgreSQL; waits for it), so statements that read-then-write the same rows run one
    /// after another, each seeing what the previous one committed. SQLite runs one writer at a
    /// time already: `body` runs on the shared database.
    func serializedPerKey(_ key: String, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        _ = try await withAdvisoryLock(key, waiting: true, body)
    }

    /// The one advisory-lock mechanism: on PostgreSQL, takes the session lock of `name` on one
    /// pooled connection (`pg_advisory_lock` when `waiting`, else `pg_try_advisory_lock`), runs
    /// `body` on that connection, and always unlocks. `false` when the lock was busy and
    /// `waiting` is `false` (`body` did not run). SQLite: `body` runs on the shared database.
    private func withAdvisoryLock(
        _ name: String, waiting: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Void
    ) async throws -> Bool {
        guard database.dialect.name == "postgresql" else {
            try await body(database)
            return true
        }
        let key = Self.advisoryLockKey(name)
        return try await database.withSession { session in
            if waiting {
                try await session.raw("SELECT pg_advisory_lock(\(bind: key))").run()
            } else {
                let acquired = try await session.raw("SELECT pg_try_advisory_lock(\(bind: key)) AS acquired")
                    .first(decodingColumn: "acquired", as: Bool.self) ?? false
                guard acquired else { return false }
            }
            do {
                try await body(session)
            } catch {
                _ = try? await session.raw("SELECT pg_advisory_unlock(\(bind: key))").run()
                throw error
            }
            try await session.raw("SELECT pg_advisory_unlock(\(bind: key))").run()
            return true
        }
    }

    static func advisoryLockKey(_ job: String) -> Int64 {
        SHA256.hash(data: Data(("sesame." + job).utf8)).prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}
