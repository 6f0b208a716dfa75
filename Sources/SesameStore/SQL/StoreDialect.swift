import Foundation
import SQLKit

/// The few places where databases differ, isolated (nothing above the store may assume SQLite).
///
/// - Column types: `DOUBLE PRECISION` for instants (epoch seconds, sub-second precision; REAL
///   affinity in SQLite, float8 in PostgreSQL) and `BOOLEAN` (numeric affinity in SQLite).
/// - Unique-constraint violations are recognised from the driver's message (SQLite:
///   `UNIQUE constraint failed: users.email`; PostgreSQL: `duplicate key value violates unique
///   constraint "users_email_key"`).
enum StoreDialect {
    static let timestamp = SQLDataType.custom(SQLRaw("DOUBLE PRECISION"))
    static let boolean = SQLDataType.custom(SQLRaw("BOOLEAN"))

    /// The first of `columns` named in a unique-constraint violation, or `nil` if `error` is not
    /// one.
    static func uniqueViolation(in error: any Error, columns: [String]) -> String? {
        let message = String(reflecting: error).lowercased() + " " + "\(error)".lowercased()
        guard message.contains("unique") || message.contains("duplicate key") else { return nil }
        return columns.first { message.contains($0) } ?? columns.first
    }
}

/// Conversions between record values and column values.
enum StoreValue {
    static func time(_ date: Date) -> Double { date.timeIntervalSince1970 }
    static func time(_ date: Date?) -> Double? { date?.timeIntervalSince1970 }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func fromJSON<T: Decodable>(_ type: T.Type, _ text: String, column: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw StoreError.unavailable(
                reason: "column \(column) holds malformed JSON (\(error)); the database may be corrupt, restore it from a backup")
        }
    }
}

extension SQLRow {
    func date(_ column: String) throws -> Date {
        Date(timeIntervalSince1970: try decode(column: column, as: Double.self))
    }

    func optionalDate(_ column: String) throws -> Date? {
        try decode(column: column, as: Double?.self).map(Date.init(timeIntervalSince1970:))
    }

    func string(_ column: String) throws -> String {
        try decode(column: column, as: String.self)
    }

    func optionalString(_ column: String) throws -> String? {
        try decode(column: column, as: String?.self)
    }

    func json<T: Decodable>(_ column: String, as type: T.Type) throws -> T {
        try StoreValue.fromJSON(type, try string(column), column: column)
    }

    func optionalJSON<T: Decodable>(_ column: String, as type: T.Type) throws -> T? {
        try optionalString(column).map { try StoreValue.fromJSON(type, $0, column: column) }
    }
}
