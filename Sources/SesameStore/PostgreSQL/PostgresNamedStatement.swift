import Logging
import PostgresKit
import PostgresNIO
import SQLKit
import SesameProtocol

/// A ``StatementTemplate``'s statement run as a named prepared statement (PostgreSQL's extended
/// query protocol, "Parse" with a statement name, chapter 55.2.3): each pooled connection parses
/// and plans it once, and every later execution sends only its values ("Bind" and "Execute").
/// postgres-kit sends every SQLKit query as an unnamed statement, which PostgreSQL parses and
/// plans anew each time, on the same cores as the server (issue #31 measured it).
///
/// A prepared statement's parameter types are fixed by its first use, so the name carries the
/// types of the values bound: a template run once with a `NULL` and once with a text value in
/// the same place becomes two prepared statements, never one run with values of another type.
/// Values that need postgres-kit's general `Encodable` path (none of the templates' today) run
/// as unnamed statements, as before.
struct PostgresNamedStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    /// The prepared statement's name on the connection, and its text.
    struct Identity: Sendable {
        let name: String
        let sql: String
    }

    /// PostgresNIO takes a prepared statement's name and text from its type (static
    /// requirements); a template's are known only at run time, so they are bound to the task
    /// for the one `execute` call that reads them (``run(on:logger:_:)``).
    @TaskLocal private static var current = Identity(name: "", sql: "")
    static var name: String { current.name }
    static var sql: String { current.sql }

    let identity: Identity
    /// The template's name and its parameters' types: what ``PreparedStatementNames`` names.
    private let key: String
    private let bindings: PostgresBindings

    /// The named form of `query`, or `nil` when it is not a template's or one of its values has
    /// no direct PostgreSQL encoding.
    init?(_ query: any SQLExpression) {
        guard let query = query as? SerializedSQL, let template = query.templateName else { return nil }
        var bindings = PostgresBindings(capacity: query.binds.count)
        var types: [String] = []
        types.reserveCapacity(query.binds.count)
        for value in query.binds {
            guard let type = Self.append(value, to: &bindings) else { return nil }
            types.append(type)
        }
        self.bindings = bindings
        self.key = template + "(" + types.joined(separator: ",") + ")"
        self.identity = Identity(name: PreparedStatementNames.shared.name(for: key), sql: query.sql)
    }

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }

    /// Executes the statement on `connection` (preparing it there first if this connection has
    /// not yet) and hands each row to `onRow` as SQLKit's rows.
    ///
    /// A schema change under a running server (`sesame db migrate` during a rolling deploy adding
    /// a column to a table a `SELECT *` reads) makes PostgreSQL refuse the prepared statement
    /// before it runs ("cached plan must not change result type", SQLSTATE 0A000). The statement
    /// is then prepared again under a new name and run once more.
    func run(
        on connection: PostgresConnection, logger: Logger, _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) async throws {
        do {
            try await run(as: identity, on: connection, logger: logger, onRow)
        } catch let error as PSQLError where Self.isStalePlan(error) {
            let renamed = Identity(
                name: PreparedStatementNames.shared.name(for: key, replacing: identity.name), sql: identity.sql)
            try await run(as: renamed, on: connection, logger: logger, onRow)
        }
    }

    private func run(
        as identity: Identity, on connection: PostgresConnection, logger: Logger,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) async throws {
        let rows = try await Self.$current.withValue(identity) {
            try await connection.execute(self, logger: logger)
        }
        for try await row in rows {
            onRow(row.sql(decodingContext: .default))
        }
    }

    /// SQLSTATE 0A000 from the server: PostgreSQL's refusal of a prepared plan whose result
    /// changed (the statement did not run).
    static func isStalePlan(_ error: PSQLError) -> Bool {
        error.code == .server && error.serverInfo?[.sqlState] == "0A000"
    }

    /// Appends `value` as postgres-kit would (`NULL` for a missing value, else the type's own
    /// binary encoding) and returns its type's OID as text; `nil` when the value has no direct
    /// encoding.
    private static func append(_ value: Any, to bindings: inout PostgresBindings) -> String? {
        if let optional = value as? any OptionalBind {
            guard let wrapped = optional.wrappedBind else {
                bindings.appendNull()
                return "null"
            }
            return append(wrapped, to: &bindings)
        }
        guard let encodable = value as? any PostgresThrowingDynamicTypeEncodable else { return nil }
        do {
            try bindings.append(encodable, context: .default)
        } catch {
            return nil  // the unnamed path reports the encoding error as it always has
        }
        return String(encodable.psqlType.rawValue)
    }
}

/// An `Optional` bound as a statement value, seen through `Any`.
private protocol OptionalBind {
    var wrappedBind: Any? { get }
}

extension Optional: OptionalBind {
    fileprivate var wrappedBind: Any? { self.map { $0 as Any } }
}

/// Short, collision-free names for the prepared statements of this process: PostgreSQL cuts
/// names at 63 bytes, which a template's name with its parameter types can pass, and two names
/// cut to the same prefix would be one statement. Each distinct template and type list gets the
/// next number; names are per connection, and a connection belongs to one process.
final class PreparedStatementNames: Sendable {
    static let shared = PreparedStatementNames()
    private let state = LockedState<(names: [String: String], issued: Int)>(([:], 0))

    /// The name of `key`'s statement; a new one when the statement under `stale` no longer
    /// matches the schema (once, however many connections found out at the same time).
    func name(for key: String, replacing stale: String? = nil) -> String {
        state.withLock { state in
            if let name = state.names[key], name != stale { return name }
            state.issued += 1
            let name = "sesame_\(state.issued)"
            state.names[key] = name
            return name
        }
    }
}
