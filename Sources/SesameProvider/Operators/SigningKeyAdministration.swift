import Foundation
import SesameProtocol
import SesameStore

/// The signing keys and the audit log in the admin API (issue #47), without HTTP.
package struct SigningKeyAdministration: Sendable {
    package let store: any ProviderStore
    package let keyRing: KeyRing
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(store: any ProviderStore, keyRing: KeyRing, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.keyRing = keyRing
        self.audit = audit
        self.now = now
    }

    /// The signing keys, newest first; never a private key.
    package func list(by actor: AdminActor) async throws -> AdminSigningKeyList {
        try actor.require(.readClients)
        return try await Self.list(keyRing.keys())
    }

    /// Rotates the keys as `sesame keys rotate` does: new keys sign from now on, the old stay
    /// published for the longest token lifetime plus 5 minutes. The other processes pick the
    /// new keys up within a second (``KeyChangeWatcher``). Needs a recent sign-in.
    package func rotate(by actor: AdminActor, origin: RequestOrigin?) async throws -> AdminSigningKeyList {
        try actor.require(.manageKeys)
        try actor.requireRecentSignIn(now: now())
        let created = try await keyRing.rotate(overlap: try await ServerAdmin.signingOverlap(store: store))
        audit.record(
            .keysRotated, origin: origin,
            detail: actor.auditDetail.merging(["kids": created.map(\.kid).joined(separator: " ")]) { $1 })
        return try await Self.list(keyRing.keys())
    }

    /// Retires the key `kid` (``KeyRing/retire(kid:overlap:immediately:)``): it stops signing
    /// now and leaves the key set after the overlap, or at once when `immediately`; when it was
    /// its algorithm's signing key a new one takes over. Needs a recent sign-in.
    package func retire(
        kid: String, immediately: Bool, by actor: AdminActor, origin: RequestOrigin?
    ) async throws -> AdminSigningKeyList {
        try actor.require(.manageKeys)
        try actor.requireRecentSignIn(now: now())
        let overlap = try await ServerAdmin.signingOverlap(store: store)
        guard try await keyRing.retire(kid: kid, overlap: overlap, immediately: immediately) != nil else {
            throw ProviderFailure(.notFound, "No published signing key has the kid \(kid); list them with GET /admin/api/keys.")
        }
        audit.record(
            .keyRetired, origin: origin,
            detail: actor.auditDetail.merging(["kid": kid, "immediately": "\(immediately)"]) { $1 })
        return try await Self.list(keyRing.keys())
    }

    private static func list(_ keys: [SigningKeyRecord]) -> AdminSigningKeyList {
        AdminSigningKeyList(
            keys: keys.sorted { ($0.createdAt, $0.kid) > ($1.createdAt, $1.kid) }.map {
                AdminSigningKey(
                    kid: $0.kid, algorithm: $0.algorithm, createdAt: Int($0.createdAt.timeIntervalSince1970),
                    activatesAt: Int($0.activatesAt.timeIntervalSince1970),
                    retiredAt: $0.retiredAt.map { Int($0.timeIntervalSince1970) },
                    expiresAt: $0.expiresAt.map { Int($0.timeIntervalSince1970) })
            })
    }

    // MARK: The audit log

    /// The newest records that match, a page at a time (`cursor`: where the previous page ended).
    package func auditPage(_ query: AuditQuery, by actor: AdminActor) async throws -> AdminAuditPage {
        try actor.require(.readAudit)
        let records = try await store.auditRecords(query).reversed()
        let next = records.count == query.limit ? records.last?.sequence.map { String($0) } : nil
        return AdminAuditPage(
            records: records.map {
                AdminAuditRecord(
                    time: $0.time.timeIntervalSince1970, event: $0.event, reason: $0.reason, clientAddress: $0.clientAddress,
                    clientID: $0.clientID, userID: $0.userID, requestID: $0.requestID, detail: $0.detail)
            }, nextCursor: next)
    }
}
