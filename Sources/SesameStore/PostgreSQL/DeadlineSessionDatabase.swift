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

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let base = base
        try await StatementDeadline(lease: nil, statement: statementTimeout).run { _ in
            try await base.execute(sql: query, onRow)
        }
    }
}
