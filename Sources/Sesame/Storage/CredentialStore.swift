import Foundation

/// Where the SDK keeps credentials. A store holds opaque records under string keys;
/// the SDK serializes sessions into them. Implementations: ``InMemoryCredentialStore`` (tests),
/// ``EncryptedFileCredentialStore`` (Linux and desktop), `KeychainCredentialStore` (Apple).
///
/// A record that cannot be read back (wrong key, corruption, an unknown format version) must be
/// **removed** and reported by throwing ``CredentialStoreError/recordRemoved(key:reason:)``; the
/// SDK then treats it as absent and emits a "store repaired" event. It never crashes the app.
public protocol CredentialStore: Sendable {
    /// The record for `key`, or `nil` when there is none.
    func load(_ key: String) async throws(CredentialStoreError) -> Data?
    /// Creates or atomically replaces the record for `key`.
    func save(_ data: Data, for key: String) async throws(CredentialStoreError)
    /// Removes the record; removing a missing record is not an error.
    func remove(_ key: String) async throws(CredentialStoreError)
    /// All keys present, in no particular order.
    func keys() async throws(CredentialStoreError) -> [String]
}

/// Failures of a ``CredentialStore``.
public enum CredentialStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The record could not be decrypted or decoded; it has been deleted.
    case recordRemoved(key: String, reason: String)
    /// The store could not be read or written (permissions, disk full, keychain error...).
    case unavailable(String)

    /// A sentence for logs and error messages: the removed record and what to do, or the store failure.
    public var description: String {
        switch self {
        case .recordRemoved(let key, let reason):
            "the stored record '\(key)' was unreadable (\(reason)) and has been removed; sign in again"
        case .unavailable(let detail):
            "the credential store is unavailable: \(detail)"
        }
    }
}
