import Foundation
import SesameProtocol

extension SesameClient {
    /// PIN-protected devices (docs/pin-devices.md): the device key is sealed as
    /// `seed XOR scrypt(PIN)` and the server counts wrong PINs; take it with ``SesameClient/pin``.
    public struct PIN: Sendable {
        let client: SesameClient

        /// The server's PIN policy: length, attempts, repeated digits, blacklist.
        public func policy() async throws(SesameError) -> PINPolicy { try await client.pinPolicy() }

        /// Registers a PIN for `account` (the current one by default) on this device; the PIN is
        /// checked against the policy first, rule by rule.
        public func register(_ pin: String, for account: Account.ID? = nil, label: String? = nil)
            async throws(SesameError) -> PINProfile
        {
            try await client.registerPIN(pin, for: account, label: label)
        }

        /// The PIN profiles on this device.
        public func profiles() async -> [PINProfile] { await client.pinProfiles() }

        /// Signs in with the PIN: a wrong one is ``SesameError/Code-swift.struct/wrongPIN`` with
        /// the attempts left; the last wrong one revokes the registration.
        public func unlock(with pin: String, profile: PINProfile.ID? = nil, force: Bool = false)
            async throws(SesameError) -> Account
        {
            try await client.unlock(with: pin, profile: profile, force: force)
        }

        /// Changes the PIN; the old one must be right.
        public func change(from old: String, to new: String, profile: PINProfile.ID? = nil) async throws(SesameError) {
            try await client.changePIN(from: old, to: new, profile: profile)
        }

        /// Removes the PIN registration from the server and this device.
        public func deregister(profile: PINProfile.ID? = nil) async throws(SesameError) -> PINDeregistration {
            try await client.deregisterPIN(profile: profile)
        }

        /// Keeps the PIN's secret behind biometrics (Face ID, Touch ID) after checking the PIN.
        public func enableBiometricUnlock(using unlocker: any BiometricUnlocker, pin: String, profile: PINProfile.ID? = nil)
            async throws(SesameError)
        {
            try await client.enableBiometricUnlock(using: unlocker, pin: pin, profile: profile)
        }

        /// Signs in with biometrics instead of the PIN; a failed check never counts as a wrong PIN.
        public func unlockWithBiometrics(using unlocker: any BiometricUnlocker, profile: PINProfile.ID? = nil, reason: String)
            async throws(SesameError) -> Account
        {
            try await client.unlockWithBiometrics(using: unlocker, profile: profile, reason: reason)
        }
    }
}
