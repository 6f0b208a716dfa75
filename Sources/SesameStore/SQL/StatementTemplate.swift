import SQLKit
import SesameProtocol

/// A statement serialized to SQL text once, then executed many times with fresh values.
///
/// SQLKit serializes a query's syntax tree on every execution, quoting each identifier as it
/// goes; for a statement on the token endpoint's hot path that costs more CPU than SQLite's own
/// work. A template builds the tree once with numbered ``Slot``s as its binds and keeps the text
/// the database's dialect produced (so it stays portable: `?` for SQLite, `$n` for
/// PostgreSQL) and the order in which the slots were written. Executing it only puts the values
/// in that order.
struct StatementTemplate: Sendable {
    /// A stand-in for the value at `index`; never reaches the database.
    struct Slot: Encodable, Sendable {
        let index: Int

        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                self, .init(codingPath: encoder.codingPath, debugDescription: "an unfilled statement slot"))
        }
    }

    /// The statement's name in the store (`refresh_tokens.rotate`): PostgreSQL prepares a named
    /// template once per connection under it (``PostgresNamedStatement``).
    let name: String
    let sql: String
    /// For each bind the serializer wrote, the index of the slot (value) it stands for.
    let order: [Int]
    let slotCount: Int

    /// - Parameter build: the statement, with `slots[i]` wherever value `i` goes; every bind
    ///   must be one of the slots (a value bound directly would be frozen into the template).
    init(name: String, database: any SQLDatabase, slots slotCount: Int, build: ([SQLBind]) -> any SQLExpression) {
        let slots = (0..<slotCount).map { SQLBind(Slot(index: $0)) }
        let (sql, binds) = database.serialize(build(slots))
        let order = binds.compactMap { ($0 as? Slot)?.index }
        precondition(order.count == binds.count, "a statement template binds a value that is not a slot")
        precondition(Set(order).count == slotCount, "a statement template leaves a slot unused")
        self.name = name
        self.sql = sql
        self.order = order
        self.slotCount = slotCount
    }

    /// The statement with `values` (one per slot, in slot order), ready to run or fetch.
    func filled(with values: [any Encodable & Sendable], on database: any SQLDatabase) -> FilledStatement {
        precondition(values.count == slotCount, "a statement template needs \(slotCount) values")
        return FilledStatement(
            query: SerializedSQL(sql: sql, binds: order.map { values[$0] }, templateName: name), database: database)
    }
}

/// SQL text with its binds, written as is.
struct SerializedSQL: SQLExpression {
    let sql: String
    let binds: [any Encodable & Sendable]
    /// The ``StatementTemplate`` it was filled from, if any: the same text every time, so a
    /// database may keep it prepared.
    var templateName: String? = nil

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(sql)
        serializer.binds.append(contentsOf: binds)
    }
}

/// A filled template: `first()`, `all()` and `run()` come from `SQLQueryFetcher`.
final class FilledStatement: SQLQueryFetcher {
    let query: any SQLExpression
    let database: any SQLDatabase

    init(query: any SQLExpression, database: any SQLDatabase) {
        self.query = query
        self.database = database
    }
}

/// The store's statement templates, each made on first use under its name: a statement the
/// store runs on every request is serialized once per process instead of once per call
/// (SQLKit quotes every identifier anew each time it serializes a builder, a tenth of a
/// sign-in's CPU before this cache).
final class StatementTemplateCache: Sendable {
    private let templates = LockedState<[String: StatementTemplate]>([:])

    /// The template named `name`, built by `build` the first time.
    func template(
        _ name: String, database: any SQLDatabase, slots: Int, build: ([SQLBind]) -> any SQLExpression
    ) -> StatementTemplate {
        if let template = templates.withLock({ $0[name] }) { return template }
        let template = StatementTemplate(name: name, database: database, slots: slots, build: build)
        templates.withLock { $0[name] = template }
        return template
    }
}
