import Foundation
import SesameProtocol
import SesameStore

/// The registered APIs (RFC 8707 resources, issue #49) in the admin API, without HTTP: list
/// (admin, auditor), register, change and remove (admin). A registration is checked as
/// `sesame api add` checks it (``APIValidation``); every change is audited with the operator.
package struct APIAdministration: Sendable {
    package let store: any ProviderStore
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(store: any ProviderStore, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.audit = audit
        self.now = now
    }

    package func list(by actor: AdminActor) async throws -> AdminAPIList {
        try actor.require(.readClients)
        return AdminAPIList(apis: try await store.apis().map(Self.wire))
    }

    /// Registers an API; `invalid_request` when one has the identifier.
    package func add(_ spec: AdminAPISpec, by actor: AdminActor, origin: RequestOrigin?) async throws -> AdminAPI {
        try actor.require(.manageClients)
        guard let identifier = spec.identifier, !identifier.isEmpty else { throw Self.invalid("identifier", "is required") }
        guard try await store.api(identifier: identifier) == nil else {
            throw ProviderFailure(
                .invalidRequest, "An API is registered as \(identifier.prefix(100)); change it with POST /admin/api/apis/{identifier}.")
        }
        return try await save(
            identifier: identifier, name: spec.name, scopes: spec.scopes ?? [], createdAt: now(), actor, origin)
    }

    /// Changes the members `spec` gives; the others stay.
    package func update(identifier: String, _ spec: AdminAPISpec, by actor: AdminActor, origin: RequestOrigin?) async throws
        -> AdminAPI
    {
        try actor.require(.manageClients)
        guard let current = try await store.api(identifier: identifier) else { throw Self.notFound(identifier) }
        if let other = spec.identifier, other != identifier { throw Self.invalid("identifier", "cannot change") }
        return try await save(
            identifier: identifier, name: spec.name ?? current.name, scopes: spec.scopes ?? current.scopes,
            createdAt: current.createdAt, actor, origin)
    }

    /// Removes the API: no token is issued for it any more (tokens issued stay valid until they expire).
    package func remove(identifier: String, by actor: AdminActor, origin: RequestOrigin?) async throws {
        try actor.require(.manageClients)
        guard try await store.removeAPI(identifier: identifier) else { throw Self.notFound(identifier) }
        audit.record(.apiRemoved, origin: origin, detail: actor.auditDetail.merging(["api": identifier]) { $1 })
    }

    private func save(
        identifier: String, name: String?, scopes: [String], createdAt: Date, _ actor: AdminActor, _ origin: RequestOrigin?
    ) async throws -> AdminAPI {
        let record: APIRecord
        do {
            record = try APIValidation.record(identifier: identifier, name: name, scopes: scopes, now: createdAt)
        } catch {
            throw Self.invalid(error.field, error.reason)
        }
        try await store.upsertAPI(record)
        audit.record(.apiAdded, origin: origin, detail: actor.auditDetail.merging(["api": identifier]) { $1 })
        return Self.wire(record)
    }

    static func wire(_ record: APIRecord) -> AdminAPI {
        AdminAPI(
            identifier: record.identifier, name: record.name, scopes: record.scopes,
            createdAt: Int(record.createdAt.timeIntervalSince1970))
    }

    private static func invalid(_ field: String, _ reason: String) -> ProviderFailure {
        ProviderFailure(
            .validationFailed, "\(field): \(reason)", details: [FieldError(field: field, message: reason, code: "invalid_format")])
    }

    private static func notFound(_ identifier: String) -> ProviderFailure {
        ProviderFailure(.notFound, "No API is registered as \(identifier.prefix(100)); list them with GET /admin/api/apis.")
    }
}
