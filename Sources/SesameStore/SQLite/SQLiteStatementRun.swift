import NIOCore
import SQLiteNIO
import VaporCSQLite

/// One execution of a prepared statement: binds the values, steps to the end and reads each row
/// (SQLite's C interface, §"Binding Values To Prepared Statements" and §"Result Values From A
/// Query"). The caller holds the connection and resets the statement afterwards.
struct SQLiteStatementRun {
    let statement: OpaquePointer
    let handle: OpaquePointer

    /// SQLite copies a value bound with this destructor before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func rows(binding binds: [SQLiteData]) throws -> SQLiteRows {
        let expected = Int(sqlite_nio_sqlite3_bind_parameter_count(statement))
        guard binds.count == expected else {
            throw SQLiteStatementError(
                code: SQLITE_RANGE, message: "the statement takes \(expected) values, \(binds.count) were given")
        }
        for (offset, value) in binds.enumerated() {
            let bound = bind(value, at: Int32(offset + 1))
            guard bound == SQLITE_OK else { throw SQLiteStatementError(code: bound, handle: handle) }
        }
        var columns: SQLiteColumns?
        var rows: [[SQLiteData]] = []
        while true {
            let stepped = sqlite_nio_sqlite3_step(statement)
            if stepped == SQLITE_DONE { break }
            guard stepped == SQLITE_ROW else { throw SQLiteStatementError(code: stepped, handle: handle) }
            let names = columns ?? SQLiteColumns(of: statement)
            columns = names
            rows.append(try (0..<Int32(names.names.count)).map(value(at:)))
        }
        return SQLiteRows(columns: columns ?? SQLiteColumns(names: []), values: rows)
    }

    private func bind(_ value: SQLiteData, at index: Int32) -> Int32 {
        switch value {
        case .integer(let integer):
            return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .float(let double):
            return sqlite_nio_sqlite3_bind_double(statement, index, double)
        case .text(let text):
            return sqlite_nio_sqlite3_bind_text64(
                statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
        case .blob(let buffer):
            return buffer.withUnsafeReadableBytes { bytes in
                // A null pointer would bind NULL, not an empty blob.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite_nio_sqlite3_bind_zeroblob(statement, index, 0)
                }
                return sqlite_nio_sqlite3_bind_blob64(statement, index, base, UInt64(bytes.count), Self.transient)
            }
        case .null:
            return sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private func value(at column: Int32) throws -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            // Text first, then its length in bytes (SQLite's documented order).
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else {
                throw SQLiteStatementError(code: SQLITE_NOMEM, handle: handle)
            }
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
            }
            return .blob(buffer)
        default:
            return .null
        }
    }
}
