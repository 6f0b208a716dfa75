import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import VaporCSQLite

/// SQLKit over a ``SQLiteSharedConnection``: SQLiteKit's dialect, and its encoder and decoder
/// for values, so that every statement the store builds runs and decodes as it did on
/// SQLiteNIO's connection.
struct SQLiteStoreDatabase: SQLDatabase {
    let connection: SQLiteSharedConnection
    let logger: Logger
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }
    /// The loop SQLKit's `EventLoopFuture` interface completes on; the store uses the async one.
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }

    private static let encoder = SQLiteDataEncoder()
    private static let decoder = SQLiteDataDecoder()

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        let rows = try await connection.run(sql, try binds.map { try Self.encoder.encode($0) })
        for values in rows.values {
            onRow(SQLiteResultRow(columns: rows.columns, values: values, decoder: Self.decoder))
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    /// Every statement already runs on the one connection.
    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// The result of one statement: its column names, and each row's values in their order.
struct SQLiteRows: Sendable {
    let columns: SQLiteColumns
    let values: [[SQLiteData]]
}

/// A result's column names and where each is (the first, for a name given twice).
final class SQLiteColumns: Sendable {
    let names: [String]
    let offsets: [String: Int]

    init(names: [String]) {
        self.names = names
        offsets = Dictionary(names.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The names of `statement`'s result columns.
    convenience init(of statement: OpaquePointer) {
        self.init(
            names: (0..<sqlite_nio_sqlite3_column_count(statement)).map { column in
                sqlite_nio_sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
            })
    }
}

/// One row, decoded as SQLiteKit decodes its rows (a missing column is an error; `NULL`
/// decodes as `nil`).
struct SQLiteResultRow: SQLRow {
    let columns: SQLiteColumns
    let values: [SQLiteData]
    let decoder: SQLiteDataDecoder

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.offsets[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let offset = columns.offsets[column] else { return true }
        return values[offset] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let offset = columns.offsets[column] else {
            throw DecodingError.keyNotFound(
                SQLiteColumnKey(stringValue: column),
                .init(codingPath: [], debugDescription: "the result has no column \(column)"))
        }
        return try decoder.decode(D.self, from: values[offset])
    }
}

private struct SQLiteColumnKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
