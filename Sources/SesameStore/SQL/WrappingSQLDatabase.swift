import Logging
import NIOCore
import SQLKit

/// A SQLKit database that wraps another to change how its statements run (``MeasuredDatabase``
/// times them, ``DeadlineSessionDatabase`` bounds them); the dialect, logging and event loop are
/// the wrapped database's, and the `EventLoopFuture` form of `execute` runs the wrapper's async one.
protocol WrappingSQLDatabase: SQLDatabase {
    var base: any SQLDatabase { get }
}

extension WrappingSQLDatabase {
    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        return eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }
}
