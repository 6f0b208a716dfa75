import SesameStore
import Foundation
import Logging
import SesameProtocol

/// The administration operations behind `sesame client add|list|remove`,
/// `sesame user add|list|remove` and `sesame keys rotate|list`. Validates input
/// (``ClientValidation``, ``UserValidation``), hashes secrets, and maps store failures to
/// ``AdminError``s that say what to do.
public struct ServerAdmin: Sendable {
    public let store: any ProviderStore
    public let keyRing: KeyRing
    package let hasher: any PasswordHasher

    public init(store: any ProviderStore, hasher: any PasswordHasher, keyRing: KeyRing) {
        self.store = store
        self.hasher = hasher
        self.keyRing = keyRing
    }

    /// Opens the store and key ring of a data directory (creating the directory, database and
    /// master key if needed), ready for admin commands. Passwords are hashed with
    /// ``ScryptPasswordHasher/interactive``. Call ``close()`` when done.
    ///
    /// - Parameter database: the store when it is not the data directory's SQLite file (a
    ///   PostgreSQL database); the master key stays in the data directory.
    public static func open(
        dataDirectory: DataDirectory, database: StoreLocation? = nil, logger: Logger
    ) async throws -> ServerAdmin {
        try await open(
            dataDirectory: dataDirectory, database: database, logger: logger, hasher: ScryptPasswordHasher.interactive)
    }

    /// As ``open(dataDirectory:database:logger:)`` with a chosen hasher (tests use a cheap one).
    public static func open(
        dataDirectory: DataDirectory, database: StoreLocation? = nil, logger: Logger, hasher: any PasswordHasher
    ) async throws -> ServerAdmin {
        try dataDirectory.prepare()
        let masterKey = try await dataDirectory.masterKey()
        let store = try await SQLIdentityStore.open(database ?? .sqlite(dataDirectory), logger: logger)
        let keyRing = KeyRing(store: store, masterKey: masterKey, logger: logger)
        return ServerAdmin(store: store, hasher: hasher, keyRing: keyRing)
    }

    // MARK: Clients

    /// Registers a client. Confidential clients get a generated secret (32 random bytes,
    /// base64url, RFC 6749 §2.3.1), returned once here and stored only as its SHA-256
    /// (``GeneratedClientSecret``).
    public func addClient(_ spec: ClientSpec) async throws -> (client: ClientRecord, secret: String?) {
        let generated = spec.confidential ? GeneratedClientSecret.make() : nil
        let record = try Self.record(for: spec, secretHash: generated?.storedHash)
        if try await store.client(id: spec.clientID) != nil {
            throw AdminError.clientExists(id: spec.clientID)
        }
        // A client's own tokens (client_credentials) name it in `sub`, as user tokens name
        // their user: the two never share a value (issue #44).
        if try await store.user(id: spec.clientID) != nil {
            throw AdminError.invalidClient(
                field: "client_id",
                reason: "\"\(spec.clientID)\" is a user's subject (sub); choose a client id that no user has, so that no token of the client can name that user")
        }
        try await APIValidation.checkRegistered(spec.resources, store: store)
        try await store.upsertClient(record)
        try await audit(.clientAdded, detail: ["client_id": spec.clientID, "confidential": "\(spec.confidential)"])
        return (record, generated?.secret)
    }

    /// Sets the APIs a registered client may ask tokens for and its default one (RFC 8707).
    public func setResources(_ resources: [String], defaultResource: String?, clientID: String) async throws {
        guard var record = try await store.client(id: clientID) else { throw AdminError.clientNotFound(id: clientID) }
        do {
            try APIValidation.applyResources(resources, defaultResource: defaultResource, to: &record)
        } catch {
            throw AdminError.invalidClient(field: error.field, reason: error.reason)
        }
        try await APIValidation.checkRegistered(resources, store: store)
        try await store.upsertClient(record)
        try await audit(.clientUpdated, detail: ["client_id": clientID, "resources": resources.joined(separator: " ")])
    }

    // MARK: APIs

    /// Registers an API (RFC 8707 resource), or changes the name and scopes of a registered one.
    @discardableResult
    public func addAPI(identifier: String, name: String?, scopes: [String]) async throws -> APIRecord {
        let api: APIRecord
        do {
            api = try APIValidation.record(identifier: identifier, name: name, scopes: scopes)
        } catch {
            throw AdminError.invalidAPI(field: error.field, reason: error.reason)
        }
        var stored = api
        if let existing = try await store.api(identifier: identifier) { stored.createdAt = existing.createdAt }
        try await store.upsertAPI(stored)
        try await audit(.apiAdded, detail: ["api": identifier, "scopes": scopes.joined(separator: " ")])
        return stored
    }

    public func apis() async throws -> [APIRecord] {
        try await store.apis()
    }

    /// Removes a registered API. Clients keep its name in their list until they are changed; no
    /// token is issued for it any more.
    public func removeAPI(identifier: String) async throws {
        guard try await store.removeAPI(identifier: identifier) else { throw AdminError.apiNotFound(identifier: identifier) }
        try await audit(.apiRemoved, detail: ["api": identifier])
    }

    public func clients() async throws -> [ClientRecord] {
        try await store.clients()
    }

    /// Removes the client with its codes and refresh tokens.
    public func removeClient(id: String) async throws {
        guard try await store.removeClient(id: id) else { throw AdminError.clientNotFound(id: id) }
        try await audit(.clientRemoved, detail: ["client_id": id])
    }

    /// The record of `spec`, validated as a new client is (``ClientValidation``); `AdminError`
    /// naming the field otherwise.
    package static func record(for spec: ClientSpec, secretHash: String?) throws -> ClientRecord {
        do {
            var record = try ClientValidation.makeRecord(
                clientID: spec.clientID, name: spec.name, confidential: spec.confidential,
                secretHash: secretHash, redirectURIs: spec.redirectURIs,
                postLogoutRedirectURIs: spec.postLogoutRedirectURIs,
                grantTypes: spec.grantTypes.map(\.rawValue), scopes: spec.scopes,
                tokenEndpointAuthMethod: spec.tokenEndpointAuthMethod?.rawValue,
                idTokenSigningAlg: spec.idTokenSigningAlg, accessTokenSigningAlg: spec.accessTokenSigningAlg,
                accessTokenLifetime: spec.accessTokenLifetime, idTokenLifetime: spec.idTokenLifetime,
                refreshTokenLifetime: spec.refreshTokenLifetime, mfaPolicy: spec.mfaPolicy,
                firstParty: spec.firstParty, appGroup: spec.appGroup, jwks: spec.jwks,
                requirePushedRequests: spec.requirePushedRequests, dpopBoundAccessTokens: spec.dpopBoundAccessTokens,
                securityProfile: spec.securityProfile, tlsClientAuthSubject: spec.tlsClientAuthSubject,
                certificateBoundAccessTokens: spec.certificateBoundAccessTokens)
            try ClientValidation.applyPolicies(
                introspectsAnyToken: spec.introspectsAnyToken, deviceCodeLifetime: spec.deviceCodeLifetime,
                devicePollInterval: spec.devicePollInterval, to: &record)
            try APIValidation.applyResources(spec.resources, defaultResource: spec.defaultResource, to: &record)
            return record
        } catch {
            throw AdminError.invalidClient(field: error.field, reason: error.reason)
        }
    }

    /// Sets the device-PIN policy of a client (docs/pin-devices.md); `nil` restores the default.
    public func setPINPolicy(_ policy: PINPolicy?, clientID: String) async throws {
        guard try await store.client(id: clientID) != nil else { throw AdminError.clientNotFound(id: clientID) }
        try await store.setPINPolicy(policy, clientID: clientID)
        try await audit(
            .clientUpdated,
            detail: ["client_id": clientID, "pin_policy": policy.map { "min \($0.minimumLength), attempts \($0.maximumAttempts)" } ?? "default"])
    }

    // MARK: Users

    /// Creates a user with a hashed password. Username and email are unique, case-insensitively.
    public func addUser(
        username: String, email: String, password: String, claims: StandardClaims? = nil,
        emailVerified: Bool = true
    ) async throws -> UserRecord {
        do {
            try UserValidation.checkUsername(username)
            try UserValidation.checkEmail(email)
            try UserValidation.checkPassword(password, email: email, username: username)
        } catch {
            throw AdminError.invalidUser(field: error.field, reason: error.reason)
        }
        if let existing = try await store.user(login: username) {
            throw AdminError.userExists(
                field: existing.username == username.lowercased() ? "username" : "email", value: username)
        }
        if try await store.user(login: email) != nil {
            throw AdminError.userExists(field: "email", value: email)
        }
        let user = UserRecord(
            username: username, email: email, emailVerified: emailVerified,
            passwordHash: try hasher.hash(password), claims: claims)
        do {
            try await store.createUser(user)
        } catch StoreError.conflict(let field) {
            throw AdminError.userExists(field: field, value: field == "email" ? email : username)
        }
        try await audit(.userAdded, userID: user.id)
        return user
    }

    public func users() async throws -> [UserRecord] {
        try await store.users()
    }

    /// Removes a user found by id, username or email, with their sessions and tokens.
    public func removeUser(login: String) async throws {
        let user: UserRecord? =
            if let byID = try await store.user(id: login) { byID } else { try await store.user(login: login) }
        guard let user, try await store.removeUser(id: user.id) else {
            throw AdminError.userNotFound(login: login)
        }
        try await audit(.userRemoved, userID: user.id)
    }

    /// Grants an operator role to a user found by id, username or email, or takes it away
    /// (`nil`): how the first administrator is made (issue #47), from the data directory.
    public func setRole(_ role: AdminRole?, login: String) async throws -> UserRecord {
        let user: UserRecord? =
            if let byID = try await store.user(id: login) { byID } else { try await store.user(login: login) }
        guard let user else { throw AdminError.userNotFound(login: login) }
        try await store.setAdminRole(role, userID: user.id, grantedBy: "cli", at: Date())
        try await audit(.roleChanged, userID: user.id, detail: ["actor": "cli", "new_role": role?.rawValue ?? "none"])
        return user
    }

    /// Grants an operator role to a confidential client, for automation: its `client_credentials`
    /// tokens with the `sesame:admin` scope then act with that role in the admin API (issue #47).
    /// `nil` takes it away.
    public func setClientRole(_ role: AdminRole?, clientID: String) async throws {
        guard let client = try await store.client(id: clientID) else { throw AdminError.clientNotFound(id: clientID) }
        guard client.isConfidential, client.grantTypes.contains(.clientCredentials) else {
            throw AdminError.invalidClient(
                field: "client_id", reason: "\(clientID) must be confidential with the client_credentials grant to act for itself")
        }
        try await store.setAdminRole(role, userID: clientID, grantedBy: "cli", at: Date())
        try await audit(.roleChanged, detail: ["client_id": clientID, "actor": "cli", "new_role": role?.rawValue ?? "none"])
    }

    /// Every operator and their role.
    public func roles() async throws -> [AdminRoleRecord] {
        try await store.adminRoles()
    }

    // MARK: Keys

    /// Rotates the signing keys (``KeyRing/rotate(overlap:publishAhead:)``). The old keys stay
    /// published for the longest access- or ID-token lifetime among the clients plus 5 minutes
    /// of clock skew, so every token they signed expires first. With `publishAhead` 0 the new
    /// keys are published and sign from now on; pass the JWKS cache time of your relying
    /// parties (e.g. 600) to publish them that long before they sign.
    public func rotateKeys(publishAhead: TimeInterval = 0) async throws -> [SigningKeyRecord] {
        let keys = try await keyRing.rotate(overlap: try await signingOverlap(), publishAhead: publishAhead)
        try await audit(.keysRotated, detail: ["kids": keys.map(\.kid).joined(separator: " "), "publish_ahead_s": "\(Int(publishAhead))"])
        return keys
    }

    // MARK: Audit

    /// Records an administrative change in the audit log at once (the CLI has no buffer to
    /// flush), when the store keeps one.
    package func audit(_ event: AuditEvent, userID: String? = nil, detail: [String: String] = [:]) async throws {
        try await store.appendAuditRecords([event.adminRecord(via: "sesame cli", userID: userID, detail: detail)])
    }

    /// max(access, ID token lifetime) over all clients (default lifetimes if there are none),
    /// plus 5 minutes.
    package func signingOverlap() async throws -> TimeInterval {
        try await Self.signingOverlap(store: store)
    }

    /// ``signingOverlap()`` of the clients in `store`.
    package static func signingOverlap(store: any IdentityStore) async throws -> TimeInterval {
        let defaults = ClientSpec(clientID: "default")
        let longest = try await store.clients()
            .map { max($0.accessTokenLifetime, $0.idTokenLifetime) }
            .max() ?? max(defaults.accessTokenLifetime, defaults.idTokenLifetime)
        return TimeInterval(longest + 5 * 60)
    }

    public func close() async throws {
        try await store.close()
    }
}
