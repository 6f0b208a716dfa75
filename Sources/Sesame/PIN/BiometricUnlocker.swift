import Foundation

/// Keeps a PIN profile's device key behind the platform's biometric check (Face ID, Touch ID,
/// a fingerprint), so the user can unlock without typing the PIN (docs/pin-devices.md). The SDK
/// holds the logic (``SesameClient/PIN/enableBiometricUnlock(using:pin:profile:)``,
/// ``SesameClient/PIN/unlockWithBiometrics(using:profile:reason:)``); an unlocker only stores and
/// releases bytes. On Apple platforms `KeychainBiometricUnlocker` does it with a Keychain item
/// under `SecAccessControl` `.biometryCurrentSet`; elsewhere ``NoBiometricUnlocker``.
public protocol BiometricUnlocker: Sendable {
    /// Whether the device can do biometric checks now (hardware present and enrolled).
    var isAvailable: Bool { get }
    /// Keeps `secret` for `profile`, releasable only after a biometric check.
    func store(_ secret: Data, for profile: String) async throws
    /// The secret after a successful check, or `nil` when the user cancelled, the check failed,
    /// or the enrolled biometrics changed (the item is then useless). Never a PIN failure.
    func secret(for profile: String, reason: String) async -> Data?
    /// Forgets the secret of `profile`.
    func remove(for profile: String) async
}

/// No biometrics (Linux, and devices without them): unavailable, stores nothing.
public struct NoBiometricUnlocker: BiometricUnlocker {
    /// An unlocker that always says no.
    public init() {}
    /// Always `false`: the SDK does not offer biometric unlock with this unlocker.
    public var isAvailable: Bool { false }
    /// Stores nothing; always throws ``SesameError/Code-swift.struct/biometricsUnavailable``.
    public func store(_ secret: Data, for profile: String) async throws {
        throw SesameError.biometricsUnavailable
    }
    /// Always `nil`: the user unlocks with the PIN.
    public func secret(for profile: String, reason: String) async -> Data? { nil }
    /// Does nothing: nothing was stored.
    public func remove(for profile: String) async {}
}
