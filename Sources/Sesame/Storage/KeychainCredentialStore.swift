#if canImport(Security)
import Foundation
import Security

/// A ``CredentialStore`` in the Apple Keychain.
///
/// Each record is a generic password item (`kSecClassGenericPassword`) with
/// `kSecAttrService` = ``service`` and `kSecAttrAccount` = the record key, readable after the
/// first unlock and never synced or restored to another device
/// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`). Passing an ``accessGroup`` (a
/// `keychain-access-groups` entitlement shared by the vendor's apps and extensions) shares the
/// records between them, which single sign-on needs (OpenID Connect Native SSO §6.2).
public final class KeychainCredentialStore: CredentialStore {
    /// The `kSecAttrService` of every item of this store.
    public let service: String
    /// The keychain access group, or `nil` for the app's default group.
    public let accessGroup: String?

    /// A store for items of `service`, optionally in the shared `accessGroup`.
    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public func load(_ key: String) async throws(CredentialStoreError) -> Data? {
        var query = baseQuery(account: key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let data = result as? Data else {
                _ = SecItemDelete(baseQuery(account: key) as CFDictionary)
                throw .recordRemoved(key: key, reason: "the keychain item holds no data")
            }
            return data
        case errSecItemNotFound:
            return nil
        default:
            throw failure(status, while: "reading")
        }
    }

    public func save(_ data: Data, for key: String) async throws(CredentialStoreError) {
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        // Update first: an existing item keeps its identity; add only when there is none.
        for _ in 0..<2 {
            let updated = SecItemUpdate(baseQuery(account: key) as CFDictionary, attributes as CFDictionary)
            switch updated {
            case errSecSuccess:
                return
            case errSecItemNotFound:
                let item = baseQuery(account: key).merging(attributes) { _, new in new }
                let added = SecItemAdd(item as CFDictionary, nil)
                switch added {
                case errSecSuccess: return
                case errSecDuplicateItem: continue  // another writer added it meanwhile: update it
                default: throw failure(added, while: "adding")
                }
            default:
                throw failure(updated, while: "updating")
            }
        }
        throw .unavailable("the keychain item for '\(key)' changed concurrently twice; retry")
    }

    public func remove(_ key: String) async throws(CredentialStoreError) {
        let status = SecItemDelete(baseQuery(account: key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw failure(status, while: "deleting")
        }
    }

    public func keys() async throws(CredentialStoreError) -> [String] {
        var query = baseQuery(account: nil)
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            let items = result as? [[String: Any]] ?? []
            return items.compactMap { $0[kSecAttrAccount as String] as? String }
        case errSecItemNotFound:
            return []
        default:
            throw failure(status, while: "listing")
        }
    }

    /// The attributes that identify this store's items (and one record when `account` is given).
    private func baseQuery(account: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            // The data-protection keychain on macOS too, so access groups work the same everywhere.
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let account { query[kSecAttrAccount as String] = account }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// A typed error for an `OSStatus`, with advice for the statuses users meet.
    private func failure(_ status: OSStatus, while action: String) -> CredentialStoreError {
        let text = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
        let advice: String
        switch status {
        case errSecMissingEntitlement:
            advice = accessGroup.map {
                "add '\($0)' to the app's keychain-access-groups entitlement"
            } ?? "check the app's keychain entitlements"
        case errSecInteractionNotAllowed:
            advice = "the device is locked; retry after the user unlocks it"
        default:
            advice = "retry; if it persists, sign out and sign in again"
        }
        return .unavailable("keychain error \(status) while \(action) an item of '\(service)': \(text); \(advice)")
    }
}
#endif
