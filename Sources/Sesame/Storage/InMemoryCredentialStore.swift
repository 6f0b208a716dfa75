import Foundation

/// A ``CredentialStore`` that keeps records in memory only (an in-memory store for
/// tests). Nothing survives the process; use it in tests and previews, never to persist a
/// session in a shipping app.
public actor InMemoryCredentialStore: CredentialStore {
    private var records: [String: Data] = [:]

    /// An empty store.
    public init() {}

    /// The record for `key`, or `nil`; never throws.
    public func load(_ key: String) async throws(CredentialStoreError) -> Data? {
        records[key]
    }

    /// Creates or replaces the record for `key`; never throws.
    public func save(_ data: Data, for key: String) async throws(CredentialStoreError) {
        records[key] = data
    }

    /// Removes the record for `key`, if any; never throws.
    public func remove(_ key: String) async throws(CredentialStoreError) {
        records[key] = nil
    }

    /// The keys of all records, in no particular order; never throws.
    public func keys() async throws(CredentialStoreError) -> [String] {
        Array(records.keys)
    }
}
