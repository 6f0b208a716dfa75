import Foundation
import SesameProtocol

/// The PIN registrations of one client on this device (docs/pin-devices.md), as
/// ``PINVaultRecord``s in the app's ``CredentialStore``: the device key's seed sealed under the
/// PIN, never the PIN or the plain seed.
struct PINVaultStore: Sendable {
    let store: any CredentialStore
    let clientID: String

    /// This client's records, oldest first (other clients' and unreadable entries skipped).
    func records() async -> [PINVaultRecord] {
        let keys = (try? await store.keys()) ?? []
        var records: [PINVaultRecord] = []
        for key in keys where key.hasPrefix(PINVault.keyPrefix) {
            guard let data = try? await store.load(key),
                let record = try? JSONDecoder().decode(PINVaultRecord.self, from: data),
                record.clientID == clientID
            else { continue }
            records.append(record)
        }
        return records.sorted { $0.createdAt < $1.createdAt }
    }

    /// The record of `id`, or the newest one.
    /// - Throws: ``SesameError/Code-swift.struct/noPINProfile`` when there is none.
    func record(_ id: PINProfile.ID?) async throws(SesameError) -> PINVaultRecord {
        let records = await records()
        guard let record = id.map({ id in records.first { $0.registrationID == id } }) ?? records.last else {
            throw .noPINProfile
        }
        return record
    }

    func save(_ record: PINVaultRecord) async throws(SesameError) {
        do {
            try await store.save(try JSONEncoder().encode(record), for: PINVault.key(record.registrationID))
        } catch {
            throw .technical(.storage("could not save the PIN record: \(error)"))
        }
    }

    /// Forgets a registration's record (best effort: a failure leaves a record that unlocks
    /// nothing once the server revoked it).
    func remove(_ registrationID: String) async {
        try? await store.remove(PINVault.key(registrationID))
    }
}
