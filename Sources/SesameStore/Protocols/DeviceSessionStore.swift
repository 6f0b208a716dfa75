import Foundation

/// Native SSO device sessions (``DeviceSessionRecord``, docs/native-sso.md) and the replay
/// record of RFC 7523 client assertions. Revoking a session revokes, in the same call, every
/// refresh-token family issued in it (reason ``RefreshFamilyRevocationReason/signedOutEverywhere``),
/// so every process sees the end at once.
public protocol DeviceSessionStore: Sendable {
    func insertDeviceSession(_ session: DeviceSessionRecord) async throws
    /// The session whose current secret has `secretDigest`, revoked or expired ones included.
    func deviceSession(secretDigest: String) async throws -> DeviceSessionRecord?
    func deviceSession(id: String) async throws -> DeviceSessionRecord?
    /// Replaces the session's secret (§3.4.3 rotation); the old secret stops working.
    func rotateDeviceSecret(sessionID: String, newDigest: String) async throws
    /// Revokes the session and its tokens; `false` when it was unknown or already revoked.
    @discardableResult
    func revokeDeviceSession(id: String, now: Date) async throws -> Bool
    /// Revokes every live session of the user but `keeping` (password change or reset).
    func revokeDeviceSessions(userID: String, keeping: String?, now: Date) async throws

    /// Records the `jti` of a client assertion (RFC 7523 §3 item 7) until `expiresAt`; `false`
    /// when the client already used it.
    func recordClientAssertion(clientID: String, jti: String, expiresAt: Date) async throws -> Bool
}
