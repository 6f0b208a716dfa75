import Foundation
import SQLKit

extension SQLIdentityStore: RateWindowStore {
    /// One upsert with `RETURNING` (SQLite 3.35+ and PostgreSQL).
    public func countRequest(key: String, now: Date, window length: TimeInterval) async throws -> (count: Int, windowStart: Date) {
        let at = StoreValue.time(now)
        let expired = at - length
        let row = try await database.raw(
            """
            INSERT INTO rate_windows (key, window_start, count) VALUES (\(bind: key), \(bind: at), 1)
            ON CONFLICT (key) DO UPDATE SET
                count = CASE WHEN rate_windows.window_start <= \(bind: expired) THEN 1 ELSE rate_windows.count + 1 END,
                window_start = CASE WHEN rate_windows.window_start <= \(bind: expired) THEN \(bind: at) ELSE rate_windows.window_start END
            RETURNING count, window_start
            """
        ).first()
        guard let row else { return (1, now) }
        return (try row.decode(column: "count", as: Int.self), try row.date("window_start"))
    }

    /// One upsert: a later window replaces an earlier one, an earlier one never replaces a later.
    public func addRequests(key: String, count: Int, windowStart: Date) async throws -> Int? {
        let start = StoreValue.time(windowStart)
        let row = try await database.raw(
            """
            INSERT INTO rate_windows (key, window_start, count) VALUES (\(bind: key), \(bind: start), \(bind: count))
            ON CONFLICT (key) DO UPDATE SET
                count = CASE
                    WHEN rate_windows.window_start = \(bind: start) THEN rate_windows.count + \(bind: count)
                    WHEN rate_windows.window_start < \(bind: start) THEN \(bind: count)
                    ELSE rate_windows.count END,
                window_start = CASE WHEN rate_windows.window_start < \(bind: start) THEN \(bind: start) ELSE rate_windows.window_start END
            RETURNING count, window_start
            """
        ).first()
        guard let row else { return count }
        guard abs(try row.date("window_start").timeIntervalSince(windowStart)) < 0.001 else { return nil }
        return try row.decode(column: "count", as: Int.self)
    }

    /// Windows that ended a day ago or more.
    func purgeRateWindows(now: Date) async throws {
        try await database.delete(from: "rate_windows")
            .where("window_start", .lessThan, StoreValue.time(now) - 86_400)
            .run()
    }
}
