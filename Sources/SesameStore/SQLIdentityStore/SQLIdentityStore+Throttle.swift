import Foundation
import SQLKit

extension SQLIdentityStore: ThrottleStore {
    public func throttleLock(keys: [String], now: Date) async throws -> Date? {
        guard !keys.isEmpty else { return nil }
        let rows = try await database.select().column("locked_until").from("throttle_counters")
            .where("key", .in, keys)
            .where("locked_until", .greaterThan, StoreValue.time(now))
            .all()
        return try rows.compactMap { try $0.optionalDate("locked_until") }.max()
    }

    /// One upsert (`INSERT … ON CONFLICT DO UPDATE … RETURNING`, SQLite 3.35+ and PostgreSQL):
    /// concurrent failures on several processes each add one.
    public func recordThrottleFailure(
        key: String, now: Date, forgetBefore: Date, restartAfterLockout: Bool
    ) async throws -> Int {
        let at = StoreValue.time(now)
        let forget = StoreValue.time(forgetBefore)
        // A count starts over when its failures are old and no lockout runs, or (an address's
        // window) as soon as its lockout has ended.
        let restart = restartAfterLockout ? 1 : 0
        let row = try await database.raw(
            """
            INSERT INTO throttle_counters (key, failures, last_failure, locked_until)
            VALUES (\(bind: key), 1, \(bind: at), NULL)
            ON CONFLICT (key) DO UPDATE SET
                failures = CASE
                    WHEN (throttle_counters.last_failure < \(bind: forget)
                        AND (throttle_counters.locked_until IS NULL OR throttle_counters.locked_until <= \(bind: at)))
                      OR (\(bind: restart) = 1 AND throttle_counters.locked_until IS NOT NULL
                        AND throttle_counters.locked_until <= \(bind: at))
                    THEN 1 ELSE throttle_counters.failures + 1 END,
                locked_until = CASE
                    WHEN throttle_counters.locked_until IS NOT NULL AND throttle_counters.locked_until <= \(bind: at)
                        AND (throttle_counters.last_failure < \(bind: forget) OR \(bind: restart) = 1)
                    THEN NULL ELSE throttle_counters.locked_until END,
                last_failure = \(bind: at)
            RETURNING failures
            """
        ).first()
        return try row?.decode(column: "failures", as: Int.self) ?? 1
    }

    public func lockThrottle(key: String, until: Date) async throws {
        let until = StoreValue.time(until)
        try await database.raw(
            """
            UPDATE throttle_counters SET locked_until = \(bind: until)
            WHERE key = \(bind: key) AND (locked_until IS NULL OR locked_until < \(bind: until))
            """
        ).run()
    }

    public func forgiveThrottleFailure(key: String) async throws {
        try await database.raw(
            "UPDATE throttle_counters SET failures = failures - 1 WHERE key = \(bind: key) AND failures > 0"
        ).run()
    }

    /// One conditional `UPDATE … RETURNING`: the statement that finds the ended lockout replaces it.
    public func claimThrottleProbe(key: String, now: Date, until: Date) async throws -> Bool {
        let at = StoreValue.time(now)
        let row = try await database.raw(
            """
            UPDATE throttle_counters SET locked_until = \(bind: StoreValue.time(until))
            WHERE key = \(bind: key) AND locked_until IS NOT NULL AND locked_until <= \(bind: at)
            RETURNING key
            """
        ).first()
        return row != nil
    }

    public func clearThrottle(key: String) async throws {
        try await database.delete(from: "throttle_counters").where("key", .equal, key).run()
    }

    /// Counters with no failure for a day and no running lockout.
    func purgeThrottleCounters(now: Date) async throws {
        let at = StoreValue.time(now)
        try await database.raw(
            """
            DELETE FROM throttle_counters
            WHERE last_failure < \(bind: at - 86_400) AND (locked_until IS NULL OR locked_until < \(bind: at))
            """
        ).run()
    }
}
