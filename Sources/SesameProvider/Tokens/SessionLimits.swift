import Foundation
import SesameStore

/// How many live sessions (refresh-token families) a user keeps (issue #28 §7). Without a cap,
/// every sign-in of a relying party that never refreshes, of a script, or of a PIN unlock adds
/// a family that lives for the refresh-token lifetime: 60 sign-ins made 73 live families. Past a
/// cap the least recently used family is revoked (``RefreshFamilyRevocationReason/evicted``),
/// its next refresh says why, and the audit log has a `session.evicted` record.
///
/// The defaults leave room for every device of a person, as Auth0 does with 200 per user and
/// application: 25 per user and client, 100 per user across clients.
public struct SessionLimits: Sendable, Equatable {
    /// Live families of one user with one client.
    public var perClient: Int
    /// Live families of one user with all clients.
    public var perUser: Int

    public init(perClient: Int = 25, perUser: Int = 100) {
        self.perClient = perClient
        self.perUser = perUser
    }
}

/// Applies ``SessionLimits`` after a grant opened a new family: one read of the user's live
/// families, and a revocation only when a cap is exceeded.
package struct SessionCap: Sendable {
    package let store: any IdentityStore
    package let limits: SessionLimits
    package let audit: AuditLog

    package init(store: any IdentityStore, limits: SessionLimits, audit: AuditLog) {
        self.store = store
        self.limits = limits
        self.audit = audit
    }

    /// No cap (tests of other features that build grants by hand).
    package static func off(store: any IdentityStore) -> SessionCap {
        SessionCap(store: store, limits: SessionLimits(perClient: .max, perUser: .max), audit: .off)
    }

    /// Revokes the least recently used families of `userID` beyond the caps, never `newFamily`.
    package func enforce(
        userID: String, clientID: String, newFamily: String, origin: RequestOrigin?, now: Date
    ) async throws {
        guard limits.perClient < .max || limits.perUser < .max else { return }
        let live = try await store.liveRefreshFamilies(userID: userID, now: now)
        guard live.count > min(limits.perClient, limits.perUser) else { return }
        // Oldest first; the new family is kept whatever its recorded time.
        let candidates = live.filter { $0.familyID != newFamily }.sorted { $0.lastUsed < $1.lastUsed }
        var evicted: [(LiveRefreshFamily, String)] = []
        let sameClient = candidates.filter { $0.clientID == clientID }
        let overClient = (sameClient.count + 1) - max(1, limits.perClient)
        if overClient > 0 { evicted += sameClient.prefix(overClient).map { ($0, "per_client") } }
        let remaining = candidates.filter { family in !evicted.contains { $0.0.familyID == family.familyID } }
        let overUser = (remaining.count + 1) - max(1, limits.perUser)
        if overUser > 0 { evicted += remaining.prefix(overUser).map { ($0, "per_user") } }
        // Concurrent sign-ins of one user see the same oldest families: each is revoked, and
        // audited, by the one call that claims it.
        let revoked = try await store.revokeLiveRefreshFamilies(evicted.map(\.0.familyID), now: now, reason: .evicted)
        for (family, cap) in evicted where revoked.contains(family.familyID) {
            audit.record(
                .sessionEvicted, reason: cap, origin: origin, clientID: family.clientID, userID: userID,
                detail: ["family_id": family.familyID, "limit": String(cap == "per_client" ? limits.perClient : limits.perUser)])
        }
    }
}
