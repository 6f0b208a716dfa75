import Foundation

/// A refresh-token family that can still be used (``IdentityStore/liveRefreshFamilies(userID:now:)``).
public struct LiveRefreshFamily: Sendable, Equatable {
    public var familyID: String
    public var clientID: String
    /// The issue time of its newest token: the last sign-in or refresh of the family.
    public var lastUsed: Date

    public init(familyID: String, clientID: String, lastUsed: Date) {
        self.familyID = familyID
        self.clientID = clientID
        self.lastUsed = lastUsed
    }
}
