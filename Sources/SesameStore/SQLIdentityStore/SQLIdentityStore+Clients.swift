import Foundation
import SQLKit
import SesameProtocol

// Registered clients (RFC 6749 §2, RFC 7591 §2 metadata).
extension SQLIdentityStore {
    /// Refuses (``StoreError/conflict(field:)`` on `client_id`) an id that is a user's: a
    /// client's own tokens carry its id in `sub`, where user tokens carry the user's id.
    public func upsertClient(_ client: ClientRecord) async throws {
        if try await user(id: client.clientID) != nil { throw StoreError.conflict(field: "client_id") }
        let columns = [
            "client_id", "name", "secret_hash", "redirect_uris", "post_logout_redirect_uris",
            "grant_types", "allowed_scopes", "token_endpoint_auth_method", "id_token_signing_alg",
            "access_token_lifetime", "id_token_lifetime", "refresh_token_lifetime", "created_at",
            "mfa_policy", "first_party", "app_group", "jwks", "access_token_signing_alg", "require_pushed_requests",
            "dpop_bound_access_tokens", "security_profile", "introspects_any_token", "device_code_lifetime",
            "device_poll_interval", "tls_client_auth_subject", "certificate_bound_access_tokens", "resources",
            "default_resource",
        ]
        let values: [any Encodable & Sendable] = [
            client.clientID, client.name, client.secretHash, try StoreValue.json(client.redirectURIs),
            try StoreValue.json(client.postLogoutRedirectURIs),
            try StoreValue.json(client.grantTypes.map(\.rawValue)),
            try StoreValue.json(client.allowedScopes), client.tokenEndpointAuthMethod.rawValue,
            client.idTokenSigningAlg, client.accessTokenLifetime, client.idTokenLifetime,
            client.refreshTokenLifetime, StoreValue.time(client.createdAt), client.mfaPolicy.rawValue,
            client.firstParty, client.appGroup, client.jwks, client.accessTokenSigningAlg, client.requirePushedRequests,
            client.dpopBoundAccessTokens, client.securityProfile.rawValue, client.introspectsAnyToken,
            client.deviceCodeLifetime, client.devicePollInterval, try client.tlsClientAuthSubject.map(StoreValue.json),
            client.certificateBoundAccessTokens, client.resources.isEmpty ? nil : try StoreValue.json(client.resources),
            client.defaultResource,
        ]
        try await database.insert(into: "clients")
            .columns(columns)
            .values(values)
            .onConflict(with: ["client_id"]) { update in
                // `created_at` keeps its first value.
                var update = update
                for column in columns where column != "client_id" && column != "created_at" {
                    update = update.set(excludedValueOf: column)
                }
                return update
            }
            .run()
        clientCache.forget(client.clientID)
        await announce(.client(client.clientID))
    }

    /// Served from ``ClientRecordCache`` when read less than 2 s ago and not changed since.
    public func client(id: String) async throws -> ClientRecord? {
        if let cached = clientCache.record(for: id) { return cached }
        let generation = clientCache.generation
        let record = try await database.select().column("*").from("clients")
            .where("client_id", .equal, id)
            .first()
            .map(Self.clientRecord)
        if let record { clientCache.remember(record, readAt: generation) }
        return record
    }

    public func clients() async throws -> [ClientRecord] {
        try await database.select().column("*").from("clients")
            .orderBy("client_id")
            .all()
            .map(Self.clientRecord)
    }

    /// Removes the client and every code and refresh token issued to it.
    @discardableResult
    public func removeClient(id: String) async throws -> Bool {
        guard try await client(id: id) != nil else { return false }
        try await revokeFamilies(matching: "client_id", id, now: Date())
        try await database.delete(from: "authorization_codes").where("client_id", .equal, id).run()
        try await deleteFamilies(matching: "client_id", id)
        try await database.delete(from: "clients").where("client_id", .equal, id).run()
        try await database.delete(from: "client_registrations").where("client_id", .equal, id).run()
        try await database.delete(from: "admin_roles").where("user_id", .equal, id).run()
        clientCache.forget(id)
        await announce(.client(id))
        return true
    }

    static func clientRecord(_ row: any SQLRow) throws -> ClientRecord {
        let grantNames = try row.json("grant_types", as: [String].self)
        let grants = try grantNames.map { name in
            guard let grant = GrantType(rawValue: name) else {
                throw StoreError.unavailable(
                    reason: "clients.grant_types holds the unknown grant \"\(name)\"; fix the client with `sesame client add`")
            }
            return grant
        }
        let methodName = try row.string("token_endpoint_auth_method")
        guard let method = ClientAuthenticationMethod(rawValue: methodName) else {
            throw StoreError.unavailable(
                reason: "clients.token_endpoint_auth_method holds the unknown method \"\(methodName)\"; fix the client with `sesame client add`")
        }
        let policyName = try row.string("mfa_policy")
        guard let mfaPolicy = MFAPolicy(rawValue: policyName) else {
            throw StoreError.unavailable(
                reason: "clients.mfa_policy holds the unknown policy \"\(policyName)\"; fix the client with `sesame client add`")
        }
        var record = ClientRecord(
            clientID: try row.string("client_id"),
            name: try row.string("name"),
            secretHash: try row.optionalString("secret_hash"),
            redirectURIs: try row.json("redirect_uris", as: [String].self),
            postLogoutRedirectURIs: try row.json("post_logout_redirect_uris", as: [String].self),
            grantTypes: grants,
            allowedScopes: try row.json("allowed_scopes", as: [String].self),
            tokenEndpointAuthMethod: method,
            idTokenSigningAlg: try row.string("id_token_signing_alg"),
            accessTokenSigningAlg: try row.string("access_token_signing_alg"),
            accessTokenLifetime: try row.decode(column: "access_token_lifetime", as: Int.self),
            idTokenLifetime: try row.decode(column: "id_token_lifetime", as: Int.self),
            refreshTokenLifetime: try row.decode(column: "refresh_token_lifetime", as: Int.self),
            createdAt: try row.date("created_at"),
            mfaPolicy: mfaPolicy,
            firstParty: try row.decode(column: "first_party", as: Bool.self),
            appGroup: try row.optionalString("app_group"), jwks: try row.optionalString("jwks"),
            requirePushedRequests: try row.decode(column: "require_pushed_requests", as: Bool.self),
            dpopBoundAccessTokens: try row.decode(column: "dpop_bound_access_tokens", as: Bool.self),
            // A profile this version does not know (written by a newer one): the strictest.
            securityProfile: ClientSecurityProfile(rawValue: try row.string("security_profile")) ?? .fapi2)
        record.introspectsAnyToken = try row.decode(column: "introspects_any_token", as: Bool.self)
        record.deviceCodeLifetime = try row.decode(column: "device_code_lifetime", as: Int?.self)
        record.devicePollInterval = try row.decode(column: "device_poll_interval", as: Int?.self)
        if try row.optionalString("tls_client_auth_subject") != nil {
            record.tlsClientAuthSubject = try row.json("tls_client_auth_subject", as: TLSClientAuthSubject.self)
        }
        record.certificateBoundAccessTokens = try row.decode(column: "certificate_bound_access_tokens", as: Bool.self)
        record.resources = try row.optionalJSON("resources", as: [String].self) ?? []
        record.defaultResource = try row.optionalString("default_resource")
        return record
    }
}
