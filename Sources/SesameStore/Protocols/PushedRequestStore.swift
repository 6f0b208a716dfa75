import Foundation

/// Pushed authorization requests (RFC 9126): the validated parameters a client pushed, found by
/// the digest of the `request_uri` it got back, and taken at most once by any server process.
public protocol PushedRequestStore: Sendable {
    /// Stores a pushed request until `record.expiresAt`.
    func insertPushedRequest(_ record: PushedRequestRecord) async throws

    /// Removes and returns the request stored under `digest` if it has not expired at `now`; a
    /// second call (on any process) gets `nil` (RFC 9126 §4: a `request_uri` is used once).
    func takePushedRequest(digest: String, now: Date) async throws -> PushedRequestRecord?
}

/// One pushed authorization request (RFC 9126 §2): the parameters as the client sent them, after
/// they passed the checks `/authorize` applies.
public struct PushedRequestRecord: Sendable, Equatable {
    /// SHA-256 of the `request_uri`'s random part (``SecretDigest``): the value itself is not kept.
    public var digest: String
    public var clientID: String
    /// The authorization request parameters, `client_id` included.
    public var parameters: [String: String]
    public var expiresAt: Date

    public init(digest: String, clientID: String, parameters: [String: String], expiresAt: Date) {
        self.digest = digest
        self.clientID = clientID
        self.parameters = parameters
        self.expiresAt = expiresAt
    }
}
