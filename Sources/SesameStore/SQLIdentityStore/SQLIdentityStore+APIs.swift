import Foundation
import SQLKit

// Registered APIs (RFC 8707 §2 resources), the `apis` table of migration 1500.
extension SQLIdentityStore {
    public func upsertAPI(_ api: APIRecord) async throws {
        try await database.insert(into: "apis")
            .columns("identifier", "name", "scopes", "created_at")
            .values(api.identifier, api.name, try StoreValue.json(api.scopes), StoreValue.time(api.createdAt))
            .onConflict(with: ["identifier"]) { update in
                update.set(excludedValueOf: "name").set(excludedValueOf: "scopes")
            }
            .run()
    }

    public func api(identifier: String) async throws -> APIRecord? {
        try await selectAll(from: "apis", where: "identifier", equals: identifier).first().map(Self.apiRecord)
    }

    public func apis() async throws -> [APIRecord] {
        try await database.select().column("*").from("apis").orderBy("identifier").all().map(Self.apiRecord)
    }

    @discardableResult
    public func removeAPI(identifier: String) async throws -> Bool {
        guard try await api(identifier: identifier) != nil else { return false }
        try await database.delete(from: "apis").where("identifier", .equal, identifier).run()
        return true
    }

    static func apiRecord(_ row: any SQLRow) throws -> APIRecord {
        APIRecord(
            identifier: try row.string("identifier"), name: try row.string("name"),
            scopes: try row.json("scopes", as: [String].self), createdAt: try row.date("created_at"))
    }
}

/// How a list of resource identifiers (RFC 8707 §2: absolute URIs, which hold no space) sits in
/// one column: space-separated like a scope, `NULL` when empty.
enum ResourceColumn {
    static func value(_ resources: [String]) -> String? {
        resources.isEmpty ? nil : resources.joined(separator: " ")
    }

    static func resources(_ value: String?) -> [String] {
        value.map { $0.split(separator: " ").map(String.init) } ?? []
    }
}
