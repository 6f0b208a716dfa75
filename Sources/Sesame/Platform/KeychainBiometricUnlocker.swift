#if canImport(LocalAuthentication) && canImport(Security)
import Foundation
import LocalAuthentication
import Security

/// ``BiometricUnlocker`` on Apple platforms: the secret is a generic-password Keychain item,
/// this device only, readable only after a biometric check of the currently enrolled set
/// (`SecAccessControl` `.biometryCurrentSet`: enrolling another finger or face invalidates it,
/// and the PIN remains the way in). The check runs when the item is read, with the reason shown
/// by the system. Thin by design: the logic is in the SDK and tested on Linux with a double.
public struct KeychainBiometricUnlocker: BiometricUnlocker {
    public let service: String

    public init(service: String = "sesame.pin.biometric") {
        self.service = service
    }

    public var isAvailable: Bool {
        var error: NSError?
        return LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
    }

    public func store(_ secret: Data, for profile: String) async throws {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &error)
        else { throw SesameError.biometricsUnavailable }
        await remove(for: profile)
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: profile, kSecAttrAccessControl as String: access,
            kSecValueData as String: secret,
        ]
        guard SecItemAdd(item as CFDictionary, nil) == errSecSuccess else { throw SesameError.biometricsUnavailable }
    }

    public func secret(for profile: String, reason: String) async -> Data? {
        let context = LAContext()
        context.localizedReason = reason
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: profile, kSecReturnData as String: true,
            kSecUseAuthenticationContext as String: context,
        ]
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? Data
    }

    public func remove(for profile: String) async {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: profile,
        ]
        SecItemDelete(query as CFDictionary)
    }
}
#endif
