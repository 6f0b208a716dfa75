import Foundation
import SesameProtocol
import SesameStore

/// The federation providers in the admin API (issue #47, docs/federation.md), without HTTP:
/// list (admin, auditor), register, change and remove (admin). A registration is checked as
/// `sesame provider add` checks it (``ProviderValidation``); a broker client secret is sealed
/// with the master key before it is stored and never answered. Every change is audited with the
/// operator, never a secret.
package struct ProviderAdministration: Sendable {
    package let store: any ProviderStore
    package let keyRing: KeyRing
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(store: any ProviderStore, keyRing: KeyRing, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.keyRing = keyRing
        self.audit = audit
        self.now = now
    }

    package func list(by actor: AdminActor) async throws -> AdminFederationProviderList {
        try actor.require(.readClients)
        return AdminFederationProviderList(providers: try await store.federationProviders().map(Self.wire))
    }

    /// Registers a provider; `invalid_request` when one has the id.
    package func add(
        _ spec: AdminFederationProviderSpec, by actor: AdminActor, origin: RequestOrigin?
    ) async throws -> AdminFederationProvider {
        try actor.require(.manageProviders)
        guard let id = spec.id, !id.isEmpty else { throw Self.invalid("id", "is required") }
        guard let kindName = spec.kind, let kind = Federation.Kind(rawValue: kindName) else {
            throw Self.invalid("kind", "is one of \(Federation.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard try await store.federationProvider(id: id) == nil else {
            throw ProviderFailure(.invalidRequest, "A provider is registered as \(id); change it with POST /admin/api/providers/\(id).")
        }
        let record = FederationProviderRecord(
            id: id, kind: kind, issuer: spec.issuer ?? "", audiences: spec.audiences ?? [], createdAt: now())
        return try await save(apply(spec, to: record), secret: spec.brokerClientSecret, event: .providerAdded, actor, origin)
    }

    /// Changes the settings `spec` gives; the others, and a kept secret, stay.
    package func update(
        id: String, _ spec: AdminFederationProviderSpec, by actor: AdminActor, origin: RequestOrigin?
    ) async throws -> AdminFederationProvider {
        try actor.require(.manageProviders)
        guard let current = try await store.federationProvider(id: id) else { throw Self.notFound(id) }
        if let kind = spec.kind, kind != current.kind.rawValue { throw Self.invalid("kind", "cannot change; remove the provider and register it again") }
        if let other = spec.id, other != id { throw Self.invalid("id", "cannot change") }
        return try await save(apply(spec, to: current), secret: spec.brokerClientSecret, event: .providerUpdated, actor, origin)
    }

    /// Removes the provider and unlinks the identities linked through it.
    package func remove(id: String, by actor: AdminActor, origin: RequestOrigin?) async throws {
        try actor.require(.manageProviders)
        guard try await store.removeFederationProvider(id: id) else { throw Self.notFound(id) }
        audit.record(.providerRemoved, origin: origin, detail: actor.auditDetail.merging(["provider": id]) { $1 })
    }

    // MARK: Parts

    private func apply(_ spec: AdminFederationProviderSpec, to record: FederationProviderRecord) -> FederationProviderRecord {
        var record = record
        if let issuer = spec.issuer { record.issuer = issuer }
        if let audiences = spec.audiences { record.audiences = audiences }
        if let jwks = spec.jwksURI { record.jwksURI = jwks.isEmpty ? nil : jwks }
        if let claim = spec.requiredClaim { record.requiredClaim = claim }
        if let allow = spec.allowUnverifiedEmail { record.allowUnverifiedEmail = allow }
        if let link = spec.linkByEmail { record.linkByEmail = link }
        if let name = spec.displayName { record.displayName = name }
        if let broker = spec.brokerClientID {
            record.brokerClientID = broker.isEmpty ? nil : broker
            if broker.isEmpty { record.brokerClientSecretSealed = nil }
        }
        return record
    }

    private func save(
        _ record: FederationProviderRecord, secret: String?, event: AuditEvent, _ actor: AdminActor, _ origin: RequestOrigin?
    ) async throws -> AdminFederationProvider {
        var checked: FederationProviderRecord
        do {
            checked = try ProviderValidation.check(record)
        } catch {
            throw Self.invalid(error.field, error.reason)
        }
        if let secret {
            guard checked.brokerClientID != nil, !secret.isEmpty, secret.utf8.count <= 1024 else {
                throw Self.invalid("broker_client_secret", "goes with broker_client_id and is 1 to 1024 bytes")
            }
            checked.brokerClientSecretSealed = try keyRing.sealSecret(secret, context: ProviderSecrets.context(checked.id))
        } else if checked.brokerClientID != nil, checked.brokerClientSecretSealed == nil {
            throw Self.invalid("broker_client_secret", "is required with broker_client_id")
        }
        try await store.upsertFederationProvider(checked)
        audit.record(
            event, origin: origin,
            detail: actor.auditDetail.merging(["provider": checked.id, "kind": checked.kind.rawValue]) { $1 })
        return Self.wire(checked)
    }

    static func wire(_ record: FederationProviderRecord) -> AdminFederationProvider {
        AdminFederationProvider(
            id: record.id, kind: record.kind.rawValue, issuer: record.issuer, audiences: record.audiences, jwksURI: record.jwksURI,
            requiredClaim: record.requiredClaim, allowUnverifiedEmail: record.allowUnverifiedEmail, linkByEmail: record.linkByEmail,
            displayName: record.displayName, brokerClientID: record.brokerClientID,
            hasBrokerSecret: record.brokerClientSecretSealed != nil, createdAt: Int(record.createdAt.timeIntervalSince1970))
    }

    private static func invalid(_ field: String, _ reason: String) -> ProviderFailure {
        ProviderFailure(
            .validationFailed, "\(field): \(reason)", details: [FieldError(field: field, message: reason, code: "invalid_format")])
    }

    private static func notFound(_ id: String) -> ProviderFailure {
        ProviderFailure(.notFound, "No provider is registered as \(id); list them with GET /admin/api/providers.")
    }
}
