import Foundation
import SesameProtocol
import SesameStore

/// The clients part of the admin API (issue #47), without HTTP: every setting `sesame client
/// add` has, read and changed by operators whose role allows it. A change is validated as a new
/// client is (``ClientValidation``); deleting a client or rotating its secret needs a recent
/// sign-in. This process sees a change at once; the others within the client cache's two seconds
/// (``ProviderStore`` caches client records that long).
package struct ClientAdministration: Sendable {
    package let store: any ProviderStore
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(store: any ProviderStore, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.audit = audit
        self.now = now
    }

    package func list(by actor: AdminActor) async throws -> AdminClientList {
        try actor.require(.readClients)
        var clients: [AdminClient] = []
        for record in try await store.clients().sorted(by: { $0.clientID < $1.clientID }) {
            clients.append(try await view(record))
        }
        return AdminClientList(clients: clients)
    }

    package func detail(clientID: String, by actor: AdminActor) async throws -> AdminClient {
        try actor.require(.readClients)
        return try await view(try await existing(clientID))
    }

    /// The wire view of `record` with its device-PIN policy.
    private func view(_ record: ClientRecord, secret: String? = nil) async throws -> AdminClient {
        var client = AdminClient(record, secret: secret)
        client.pinPolicy = try await store.pinPolicy(clientID: record.clientID) ?? PINPolicy()
        return client
    }

    /// Registers a client as `sesame client add` does (`client_id` required; `confidential`
    /// answers its secret once), with the settings `update` gives.
    package func create(_ update: AdminClientUpdate, by actor: AdminActor, origin: RequestOrigin?) async throws -> AdminClient {
        try actor.require(.manageClients)
        guard let clientID = update.clientID, !clientID.isEmpty else {
            throw ProviderFailure.invalidClientSetting(field: "client_id", reason: "is required")
        }
        try AdminConsoleClient.refuseChange(clientID)
        let confidential = update.confidential ?? false
        var spec = ClientSpec(clientID: clientID, confidential: confidential)
        try Self.apply(update, to: &spec)
        let generated = confidential ? GeneratedClientSecret.make() : nil
        var record = try Self.validated(spec, secretHash: generated?.storedHash)
        let pins = try update.pinPolicy.map { try PINPolicy().applying($0) }
        guard try await store.client(id: clientID) == nil else {
            throw ProviderFailure(.invalidRequest, "A client is registered as \(clientID); change it with POST /admin/api/clients/\(clientID).")
        }
        guard try await store.user(id: clientID) == nil else {
            throw ProviderFailure.invalidClientSetting(field: "client_id", reason: "is a user's subject (sub); choose another")
        }
        record.createdAt = now()
        try await Self.checkRegistered(spec.resources, store: store)
        try await store.upsertClient(record)
        if let pins { try await store.setPINPolicy(pins == PINPolicy() ? nil : pins, clientID: clientID) }
        audit.record(
            .clientAdded, origin: origin, clientID: clientID,
            detail: actor.auditDetail.merging(["confidential": "\(confidential)"]) { $1 })
        return try await view(record, secret: generated?.secret)
    }

    /// Changes the settings `update` names; the others stay.
    package func update(
        clientID: String, _ update: AdminClientUpdate, by actor: AdminActor, origin: RequestOrigin?
    ) async throws -> AdminClient {
        try actor.require(.manageClients)
        try AdminConsoleClient.refuseChange(clientID)
        let current = try await existing(clientID)
        if let id = update.clientID, id != clientID { throw ProviderFailure.invalidClientSetting(field: "client_id", reason: "cannot change") }
        if let confidential = update.confidential, confidential != current.isConfidential {
            throw ProviderFailure.invalidClientSetting(field: "confidential", reason: "cannot change; register a new client")
        }
        var spec = ClientSpec(current)
        try Self.apply(update, to: &spec)
        var record = try Self.validated(spec, secretHash: current.secretHash)
        record.createdAt = current.createdAt
        var pins: PINPolicy?
        if let change = update.pinPolicy {
            pins = try (try await store.pinPolicy(clientID: clientID) ?? PINPolicy()).applying(change)
        }
        try await Self.checkRegistered(spec.resources, store: store)
        try await store.upsertClient(record)
        if let pins { try await store.setPINPolicy(pins == PINPolicy() ? nil : pins, clientID: clientID) }
        audit.record(
            .clientUpdated, origin: origin, clientID: clientID,
            detail: actor.auditDetail.merging(["changed": Self.changedFields(update)]) { $1 })
        return try await view(record)
    }

    /// The settings `update` gives, onto `spec`; a value outside its set names the field.
    private static func apply(_ update: AdminClientUpdate, to spec: inout ClientSpec) throws {
        if let name = update.name { spec.name = name }
        if let uris = update.redirectURIs { spec.redirectURIs = uris }
        if let uris = update.postLogoutRedirectURIs { spec.postLogoutRedirectURIs = uris }
        if let scopes = update.scopes { spec.scopes = scopes }
        if let first = update.firstParty { spec.firstParty = first }
        if let lifetime = update.accessTokenLifetime { spec.accessTokenLifetime = lifetime }
        if let lifetime = update.idTokenLifetime { spec.idTokenLifetime = lifetime }
        if let lifetime = update.refreshTokenLifetime { spec.refreshTokenLifetime = lifetime }
        if let par = update.requirePushedRequests { spec.requirePushedRequests = par }
        if let dpop = update.dpopBoundAccessTokens { spec.dpopBoundAccessTokens = dpop }
        if let group = update.appGroup { spec.appGroup = group.isEmpty ? nil : group }
        if let alg = update.idTokenSigningAlg { spec.idTokenSigningAlg = alg }
        if let alg = update.accessTokenSigningAlg { spec.accessTokenSigningAlg = alg }
        if let jwks = update.jwks { spec.jwks = jwks.isEmpty ? nil : jwks }
        if let resources = update.resources {
            spec.resources = resources
            if let current = spec.defaultResource, !resources.contains(current) { spec.defaultResource = nil }
        }
        if let api = update.defaultResource { spec.defaultResource = api.isEmpty ? nil : api }
        if let name = update.securityProfile {
            guard let profile = ClientSecurityProfile(rawValue: name) else {
                throw ProviderFailure.invalidClientSetting(
                    field: "security_profile", reason: "is one of \(ClientSecurityProfile.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            spec.securityProfile = profile
        }
        do {
            if let name = update.mfaPolicy { spec.mfaPolicy = try ClientValidation.checkMFAPolicy(name) }
            if let grants = update.grantTypes {
                let authenticates = spec.confidential || spec.jwks != nil || spec.tlsClientAuthSubject != nil
                spec.grantTypes = try ClientValidation.checkGrantTypes(grants, confidential: authenticates)
            }
        } catch {
            throw ProviderFailure.invalidClientSetting(field: error.field, reason: error.reason)
        }
    }

    /// The record `spec` makes, validated as a new client is.
    private static func validated(_ spec: ClientSpec, secretHash: String?) throws -> ClientRecord {
        do {
            return try ServerAdmin.record(for: spec, secretHash: secretHash)
        } catch let error as AdminError {
            guard case .invalidClient(let field, let reason) = error else { throw error }
            throw ProviderFailure.invalidClientSetting(field: field, reason: reason)
        }
    }

    /// Refuses (`validation_failed` on `resources`) an API that is not registered.
    private static func checkRegistered(_ resources: [String], store: any ProviderStore) async throws {
        do {
            try await APIValidation.checkRegistered(resources, store: store)
        } catch AdminError.invalidClient(let field, let reason) {
            throw ProviderFailure.invalidClientSetting(field: field, reason: reason)
        }
    }

    /// A new secret for a confidential client, shown once in the answer; the old one stops
    /// working at once in this process (the others within the client cache's two seconds).
    package func rotateSecret(clientID: String, by actor: AdminActor, origin: RequestOrigin?) async throws -> AdminClient {
        try actor.require(.manageClients)
        try actor.requireRecentSignIn(now: now())
        var record = try await existing(clientID)
        guard record.isConfidential else {
            throw ProviderFailure(.invalidRequest, "\(clientID) is a public client: it has no secret to rotate.")
        }
        let (secret, storedHash) = GeneratedClientSecret.make()
        record.secretHash = storedHash
        try await store.upsertClient(record)
        audit.record(.clientSecretRotated, origin: origin, clientID: clientID, detail: actor.auditDetail)
        return try await view(record, secret: secret)
    }

    /// Removes the client with its codes and refresh tokens.
    package func delete(clientID: String, by actor: AdminActor, origin: RequestOrigin?) async throws {
        try actor.require(.manageClients)
        try AdminConsoleClient.refuseChange(clientID)
        try actor.requireRecentSignIn(now: now())
        guard try await store.removeClient(id: clientID) else { throw Self.notFound(clientID) }
        audit.record(.clientRemoved, origin: origin, clientID: clientID, detail: actor.auditDetail)
    }

    private func existing(_ clientID: String) async throws -> ClientRecord {
        guard let client = try await store.client(id: clientID) else { throw Self.notFound(clientID) }
        return client
    }

    private static func notFound(_ clientID: String) -> ProviderFailure {
        ProviderFailure(.notFound, "No client has the id \(clientID); list them with GET /admin/api/clients.")
    }

    /// The names of the settings an update names (for the audit record; never their values);
    /// a PIN policy change as `pin_policy.maximum_attempts` and so on.
    private static func changedFields(_ update: AdminClientUpdate) -> String {
        let data = (try? JSONEncoder().encode(update)) ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return object.flatMap { key, value in
            (value as? [String: Any]).map { $0.keys.map { key + "." + $0 } } ?? [key]
        }.sorted().joined(separator: " ")
    }
}

extension ProviderFailure {
    /// A client setting the validation refused (`validation_failed`, naming the field).
    package static func invalidClientSetting(field: String, reason: String) -> ProviderFailure {
        ProviderFailure(
            .validationFailed, "\(field): \(reason)",
            details: [FieldError(field: field, message: reason, code: "invalid_format")])
    }
}

extension AdminClient {
    /// The wire view of a registered client (never the secret's hash).
    package init(_ client: ClientRecord, secret: String? = nil) {
        self.init(
            clientID: client.clientID, name: client.name, type: client.isConfidential ? "confidential" : "public",
            redirectURIs: client.redirectURIs, postLogoutRedirectURIs: client.postLogoutRedirectURIs,
            grantTypes: client.grantTypes.map(\.rawValue), scopes: client.allowedScopes,
            tokenEndpointAuthMethod: client.tokenEndpointAuthMethod.rawValue, idTokenSigningAlg: client.idTokenSigningAlg,
            accessTokenSigningAlg: client.accessTokenSigningAlg, mfaPolicy: client.mfaPolicy.rawValue,
            firstParty: client.firstParty, appGroup: client.appGroup, accessTokenLifetime: client.accessTokenLifetime,
            idTokenLifetime: client.idTokenLifetime, refreshTokenLifetime: client.refreshTokenLifetime,
            requirePushedRequests: client.requirePushedRequests, dpopBoundAccessTokens: client.dpopBoundAccessTokens,
            securityProfile: client.securityProfile.rawValue, introspectsAnyToken: client.introspectsAnyToken,
            deviceCodeLifetime: client.deviceCodeLifetime, devicePollInterval: client.devicePollInterval,
            clientSecret: secret)
        tlsClientAuthSubject = client.tlsClientAuthSubject
        tlsClientCertificateBoundAccessTokens = client.certificateBoundAccessTokens
        resources = client.resources
        defaultResource = client.defaultResource
    }
}
