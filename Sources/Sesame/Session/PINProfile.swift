import Foundation

/// One PIN registration on this device (docs/pin-devices.md): a user of this app who unlocks
/// with a PIN. Several users can have one each (``SesameClient/PIN/profiles()``).
public struct PINProfile: Sendable, Equatable, Identifiable {
    /// The server's registration id.
    public let id: String
    /// The account it unlocks (issuer and subject).
    public let account: Account.ID
    /// What to show: the account's name or email at registration.
    public let label: String?
    /// When the device was registered for this account's PIN.
    public let createdAt: Date

    /// Builds a profile; the SDK makes these at registration, apps need this only for test doubles.
    public init(id: String, account: Account.ID, label: String?, createdAt: Date) {
        self.id = id
        self.account = account
        self.label = label
        self.createdAt = createdAt
    }
}
