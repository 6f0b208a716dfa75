import SQLKit

/// The statements of a session (``PostgresClientDatabase/withSession(_:)``: the purge and the
/// migrations, under their advisory locks), each under the ``StatementDeadline``. The session's
/// connection is already leased, so only the statement time applies: a statement written to a
/// connection that has just closed, which PostgresNIO never answers, ends with
/// ``StoreError/unavailable(reason:)`` instead of holding its session, and the session's lock,
/// until the process ends.
struct DeadlineSessionDatabase: WrappingSQLDatabase {
    let base: any SQLDatabase
    let statementTimeout: Duration
    /// Whether the session's connection has closed (a statement then ends within
    /// ``StatementDeadline/closedCheck``); `nil` when nothing can tell.
    var closed: (@Sendable () -> Bool)?

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let base = base
        let closed = closed
        try await StatementDeadline(lease: nil, statement: statementTimeout).run { leased in
            leased(closed: closed)
            try await base.execute(sql: query, onRow)
        }
    }
}
