import SQLKit

// Attempt counters (docs/first-party-and-accounts.md, "Attempt limits"): every guess of a secret
// (a one-time code, a PIN, a passkey's signature) is counted in the store before the secret is
// compared, so no number of parallel requests, on any number of processes, gets more guesses
// evaluated than the limit allows.
extension SQLIdentityStore {
    /// Reserves one attempt in `column` of the rows `filter` selects, unless `maxAttempts` were
    /// made already: one conditional statement,
    /// `UPDATE t SET n = n + 1 WHERE … AND n < max RETURNING n`. Returns the count including
    /// this attempt, or `nil` when none is left (or no row matches): the caller must not compare
    /// the secret then.
    ///
    /// Atomic on both databases, also across processes: SQLite runs one writer at a time, and on
    /// PostgreSQL a concurrent `UPDATE` of the row waits for the first to commit and then checks
    /// its `WHERE` against the new row (READ COMMITTED), so of N racing callers exactly
    /// `maxAttempts − n` get a count. `RETURNING` tells each caller its own count (SQLite ≥ 3.35).
    func reserveAttempt(
        in table: String, column: String = "attempts", maxAttempts: Int,
        where filter: (SQLUpdateBuilder) -> SQLUpdateBuilder
    ) async throws -> Int? {
        guard maxAttempts > 0 else { return nil }
        let update = database.update(table)
            .set(column, to: SQLBinaryExpression(SQLColumn(column), .add, SQLLiteral.numeric("1")))
            .where(column, .lessThan, maxAttempts)
        return try await filter(update).returning(column).first(decodingColumn: column, as: Int.self)
    }
}
