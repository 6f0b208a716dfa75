import Foundation

/// Device authorization requests (RFC 8628): the device code and user code (as digests), what
/// the device asked for, the user's decision, and the polling clock. Every transition is one
/// conditional statement, so several server processes sharing the database agree: a request is
/// approved or denied once, its tokens are issued once, and polls from any process count
/// against one interval.
public protocol DeviceAuthorizationStore: Sendable {
    /// Stores a new pending request. Throws ``StoreError/conflict(field:)`` naming
    /// `user_code_digest` when another request holds the same user code.
    func insertDeviceAuthorization(_ record: DeviceAuthorizationRecord) async throws

    /// The request whose user code has this digest, in any state, if it is stored.
    func deviceAuthorization(userCodeDigest: String) async throws -> DeviceAuthorizationRecord?

    /// Records a poll (RFC 8628 §3.4) of `clientID`'s request at `now`, in one statement: a poll
    /// sooner than `interval - tolerance` after the previous one adds `slowDownIncrement` seconds
    /// to the interval (§3.5 `slow_down`). `nil` when no request of this client has the digest.
    func pollDeviceAuthorization(
        deviceCodeDigest: String, clientID: String, now: Date, tolerance: TimeInterval, slowDownIncrement: Int
    ) async throws -> DeviceAuthorizationPoll?

    /// Sets a pending, unexpired request to `approved` with the authentication that approved it;
    /// `false` when it is not pending any more (decided elsewhere) or expired.
    func approveDeviceAuthorization(
        userCodeDigest: String, authentication: AuthenticationContext, sessionID: String?, now: Date
    ) async throws -> Bool

    /// Sets a pending, unexpired request to `denied`; `false` when it is not pending or expired.
    func denyDeviceAuthorization(userCodeDigest: String, now: Date) async throws -> Bool

    /// Takes an approved, unexpired request's grant for its tokens: exactly one caller (on any
    /// process) gets the record, and the request becomes `redeemed`.
    func redeemDeviceAuthorization(deviceCodeDigest: String, now: Date) async throws -> DeviceAuthorizationRecord?
}

/// Where a device authorization request stands (RFC 8628 §3.5).
public enum DeviceAuthorizationStatus: String, Sendable, Codable {
    /// Waiting for the user: polls are answered `authorization_pending`.
    case pending
    /// The user approved; the next poll gets the tokens.
    case approved
    /// The user denied: `access_denied`.
    case denied
    /// The tokens were issued; the device code is spent.
    case redeemed
}

/// One device authorization request (RFC 8628 §3.1-3.2).
public struct DeviceAuthorizationRecord: Sendable, Equatable {
    /// SHA-256 of the `device_code` (``SecretDigest``): the code itself is not kept.
    public var deviceCodeDigest: String
    /// SHA-256 of the normalized user code.
    public var userCodeDigest: String
    public var clientID: String
    /// The scopes asked for, space-separated, already checked against the client's.
    public var scope: String
    /// The name the device gave itself (Sesame's `device_name` extension), shown to the user.
    public var deviceName: String?
    public var status: DeviceAuthorizationStatus
    public var createdAt: Date
    public var expiresAt: Date
    /// The minimum seconds between polls; grows by 5 with each `slow_down`.
    public var interval: Int
    /// The sign-in that approved the request (`approved` and `redeemed`).
    public var authentication: AuthenticationContext?
    /// The browser session of that sign-in, for `sid` and logout.
    public var sessionID: String?

    public init(
        deviceCodeDigest: String, userCodeDigest: String, clientID: String, scope: String, deviceName: String?,
        status: DeviceAuthorizationStatus = .pending, createdAt: Date, expiresAt: Date, interval: Int,
        authentication: AuthenticationContext? = nil, sessionID: String? = nil
    ) {
        self.deviceCodeDigest = deviceCodeDigest
        self.userCodeDigest = userCodeDigest
        self.clientID = clientID
        self.scope = scope
        self.deviceName = deviceName
        self.status = status
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.interval = interval
        self.authentication = authentication
        self.sessionID = sessionID
    }
}

/// What a recorded poll found (``DeviceAuthorizationStore/pollDeviceAuthorization(deviceCodeDigest:clientID:now:tolerance:slowDownIncrement:)``).
public struct DeviceAuthorizationPoll: Sendable, Equatable {
    public var status: DeviceAuthorizationStatus
    public var expiresAt: Date
    /// The interval after this poll (already increased when it came too early).
    public var interval: Int
    /// Whether this poll came sooner than the interval allowed.
    public var tooEarly: Bool

    public init(status: DeviceAuthorizationStatus, expiresAt: Date, interval: Int, tooEarly: Bool) {
        self.status = status
        self.expiresAt = expiresAt
        self.interval = interval
        self.tooEarly = tooEarly
    }
}
