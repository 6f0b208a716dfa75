import Foundation

/// How the device authorization grant (RFC 8628) behaves on this server.
///
/// The user-code guessing limits follow RFC 8628 §5.1 ("the authorization server should
/// rate-limit user code attempts"): the 20^8 code space (≈ 2^34.5) with at most
/// ``failuresDeploymentWide`` wrong codes a minute across the whole deployment makes a guessed
/// code unlikely (100 a minute against 1,000 pending requests: about one hit in 180 days), and
/// ``failuresPerAddress`` stops one source long before that. What a guessed code gives is
/// limited too: the guesser can only approve the device with an account of their own.
public struct DeviceAuthorizationPolicy: Sendable, Equatable {
    /// Seconds a device code and its user code stay usable (§3.2 `expires_in`). Default 600.
    public var lifetime: TimeInterval
    /// The polling interval the server asks for (§3.2 `interval`), in seconds. Default 5.
    public var interval: Int
    /// How much earlier than the interval a poll may come (network jitter) before it is
    /// answered `slow_down`. Default 1 second.
    public var pollTolerance: TimeInterval
    /// Wrong user codes from one client address within ``failureWindow`` before the address is
    /// refused for ``addressLockout``. Default 10.
    public var failuresPerAddress: Int
    /// How long an address is refused. Default 15 minutes.
    public var addressLockout: TimeInterval
    /// Wrong user codes from everyone within a minute (windows aligned to the clock, shared by
    /// every process) before every address is refused for the rest of that minute (a
    /// distributed guess); `0` turns this limit off. Default 100.
    public var failuresDeploymentWide: Int
    /// The counting window of the per-address limit: failures are forgotten after this long
    /// without one. Default 15 minutes.
    public var failureWindow: TimeInterval

    public init(
        lifetime: TimeInterval = 600, interval: Int = DeviceAuthorizationPolicyDefaults.interval,
        pollTolerance: TimeInterval = 1, failuresPerAddress: Int = 10, addressLockout: TimeInterval = 15 * 60,
        failuresDeploymentWide: Int = 100, failureWindow: TimeInterval = 15 * 60
    ) {
        self.lifetime = lifetime
        self.interval = interval
        self.pollTolerance = pollTolerance
        self.failuresPerAddress = failuresPerAddress
        self.addressLockout = addressLockout
        self.failuresDeploymentWide = failuresDeploymentWide
        self.failureWindow = failureWindow
    }
}

/// The defaults of ``DeviceAuthorizationPolicy`` that other parts name.
public enum DeviceAuthorizationPolicyDefaults {
    /// RFC 8628 §3.2: 5 seconds when the server names no interval.
    public static let interval = 5
}
