import Crypto
import Foundation
import Logging
import SesameProtocol

/// What a vendor's apps share on one device for single sign-on (OpenID Connect Native SSO 1.0,
/// draft 07 §2, §6.2): per account, the `device_secret`, the latest ID token of the device
/// session and a label for the "Continue as …" screen. Never an access or refresh token: each
/// app keeps its own in its own store.
///
/// The group is any ``CredentialStore`` the apps can all open: a `KeychainCredentialStore` with
/// the vendor's Keychain access group on Apple platforms, an ``EncryptedFileCredentialStore`` in
/// a directory the apps share (with its key file) on Linux and desktops. One record per
/// account, under `sso.` and the ``Account/id``.
struct SSOShare: Sendable {
    let store: any CredentialStore
    let logger: Logger

    /// One account's shared material.
    struct Entry: Codable, Sendable, Equatable {
        var issuer: String
        var subject: String
        var displayName: String?
        var email: String?
        var idToken: String
        var deviceSecret: String
        var sharedBy: String
        var updatedAt: Date

        var accountID: String { Account.makeID(issuer: issuer, subject: subject) }

        var account: SSOAccount {
            SSOAccount(
                id: accountID, issuer: issuer, subject: subject, displayName: displayName, email: email,
                sharedBy: sharedBy, updatedAt: updatedAt)
        }
    }

    static let keyPrefix = "sso."

    static func key(_ accountID: String) -> String { keyPrefix + accountID }

    /// Every readable entry, most recently written first. Unreadable ones are removed by the
    /// store (and skipped).
    func entries() async -> [Entry] {
        let keys: [String]
        do {
            keys = try await store.keys().filter { $0.hasPrefix(Self.keyPrefix) }
        } catch {
            logger.warning("the shared sign-in group cannot be read", metadata: ["error": "\(error)"])
            return []
        }
        var entries: [Entry] = []
        for key in keys {
            if let entry = await entry(key: key) { entries.append(entry) }
        }
        return entries.sorted { $0.updatedAt > $1.updatedAt }
    }

    func entry(for accountID: String) async -> Entry? { await entry(key: Self.key(accountID)) }

    private func entry(key: String) async -> Entry? {
        do {
            guard let data = try await store.load(key) else { return nil }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            return try decoder.decode(Entry.self, from: data)
        } catch {
            logger.warning("removed an unreadable shared sign-in entry", metadata: ["key": "\(key)"])
            try? await store.remove(key)
            return nil
        }
    }

    func save(_ entry: Entry) async throws(SesameError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let data: Data
        do {
            data = try encoder.encode(entry)
        } catch {
            throw .technical(.storage("cannot encode the shared sign-in entry: \(error)"))
        }
        do {
            try await store.save(data, for: Self.key(entry.accountID))
        } catch {
            throw .technical(.storage("cannot write the shared sign-in group: \(error)"))
        }
    }

    func remove(_ accountID: String) async {
        try? await store.remove(Self.key(accountID))
    }
}
