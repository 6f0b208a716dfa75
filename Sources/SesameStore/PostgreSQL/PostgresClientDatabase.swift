import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// SQLKit over PostgresNIO's `PostgresClient` (its connection pool): every statement leases a
/// connection for its own duration. The store needs nothing more, because every write that must
/// be atomic is one statement (``SQLIdentityStore``). Statements are never logged with their
/// bound values (`queryLogLevel` is `nil`): binds hold digests, password hashes and sealed keys.
struct PostgresClientDatabase: SQLDatabase {
    let client: PostgresClient
    let logger: Logger
    let eventLoop: any EventLoop

    var dialect: any SQLDialect { PostgresDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await client.withConnection { connection in
            try await connection.sql(queryLogLevel: nil).execute(sql: query, onRow)
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await client.withConnection { connection in
            try await closure(connection.sql(queryLogLevel: nil))
        }
    }
}
