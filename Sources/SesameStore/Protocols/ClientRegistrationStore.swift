import Foundation

/// Dynamic client registration (RFC 7591, RFC 7592): the registration behind each client an app
/// registered for itself, and the initial access tokens an operator hands out (§3: "OAuth 2.0
/// initial access token"). Secrets are kept as digests (``SecretDigest``).
public protocol ClientRegistrationStore: Sendable {
    /// Stores the registration of a client stored with ``IdentityStore/upsertClient(_:)``.
    func insertClientRegistration(_ registration: ClientRegistrationRecord) async throws
    /// The registration of `clientID`, `nil` for a client an operator registered.
    func clientRegistration(clientID: String) async throws -> ClientRegistrationRecord?
    /// Replaces the registration access token whose digest is `digest` with `newDigest`; `false`
    /// when `digest` is not the current one (another request replaced it first).
    func replaceRegistrationAccessToken(clientID: String, digest: String, with newDigest: String) async throws -> Bool
    /// Records the first time the client obtained tokens (a sign-in completed), once.
    func markClientRegistrationUsed(clientID: String, now: Date) async throws
    /// Removes the registered clients that never obtained tokens and were registered before
    /// `cutoff`, with their registrations; returns their ids.
    func removeUnusedRegisteredClients(registeredBefore cutoff: Date) async throws -> [String]

    /// Stores an initial access token's digest.
    func insertInitialAccessToken(_ token: InitialAccessTokenRecord) async throws
    /// Uses the token with `digest` once if it has uses left and has not expired at `now`;
    /// `false` otherwise. Of concurrent uses of its last use, exactly one wins.
    func consumeInitialAccessToken(digest: String, now: Date) async throws -> Bool
}

/// The registration of a dynamically registered client (RFC 7591 §3.2.1, RFC 7592 §3).
public struct ClientRegistrationRecord: Sendable, Equatable {
    public var clientID: String
    /// SHA-256 of the registration access token (RFC 7592 §3), never the token.
    public var accessTokenDigest: String
    public var softwareID: String?
    public var softwareVersion: String?
    public var registeredAt: Date
    /// When the client first obtained tokens; `nil`: never, and it expires unused.
    public var usedAt: Date?

    public init(
        clientID: String, accessTokenDigest: String, softwareID: String? = nil, softwareVersion: String? = nil,
        registeredAt: Date, usedAt: Date? = nil
    ) {
        self.clientID = clientID
        self.accessTokenDigest = accessTokenDigest
        self.softwareID = softwareID
        self.softwareVersion = softwareVersion
        self.registeredAt = registeredAt
        self.usedAt = usedAt
    }
}

/// An initial access token (RFC 7591 §3): an operator's permission to register clients.
public struct InitialAccessTokenRecord: Sendable, Equatable {
    /// SHA-256 of the token, never the token.
    public var digest: String
    public var createdAt: Date
    public var expiresAt: Date
    /// Registrations it still allows.
    public var usesLeft: Int

    public init(digest: String, createdAt: Date, expiresAt: Date, usesLeft: Int) {
        self.digest = digest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usesLeft = usesLeft
    }
}
