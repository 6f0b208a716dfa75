import Foundation
import SesameProtocol
import SesameStore

/// Opens, continues and ends Native SSO device sessions (``DeviceSessionRecord``) for the token
/// endpoint's grants and the revocation endpoint (docs/native-sso.md).
package struct DeviceSessions: Sendable {
    package let store: any DeviceSessionStore
    package let policy: NativeSSOPolicy
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(
        store: any DeviceSessionStore,
        policy: NativeSSOPolicy,
        audit: AuditLog,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.policy = policy
        self.audit = audit
        self.now = now
    }

    /// What a grant issues for the device: the secret whose `ds_hash` goes into the ID token,
    /// and whether the response carries it (a new or rotated secret) or the app has it already.
    package struct Issue: Sendable {
        package var session: DeviceSessionRecord
        package var secret: String
        package var isNew: Bool
    }

    /// §3.4.2: a code grant with `device_sso` gets a device secret. A secret the app presented
    /// (§3.3: it MUST when it has one) continues its session when that is live and of the same
    /// user and app group; anything else presented is treated as absent (§3.4) and a new
    /// session opens.
    package func open(
        client: ClientRecord, appGroup: String, authentication: AuthenticationContext, browserSessionID: String?,
        presented: String?, origin: RequestOrigin?
    ) async throws -> Issue {
        let now = now()
        if let presented, !presented.isEmpty, presented.utf8.count <= 256,
            let session = try await store.deviceSession(secretDigest: SecretDigest.of(presented)),
            session.isLive(at: now), session.userID == authentication.userID, session.appGroup == appGroup
        {
            return Issue(session: session, secret: presented, isNew: false)
        }
        let (secret, digest) = DeviceSecret.new()
        let session = DeviceSessionRecord(
            secretDigest: digest, userID: authentication.userID, appGroup: appGroup, authentication: authentication,
            browserSessionID: browserSessionID, createdAt: now, expiresAt: now.addingTimeInterval(policy.deviceSessionLifetime))
        try await store.insertDeviceSession(session)
        audit.record(
            .deviceSessionOpened, origin: origin, clientID: client.clientID, userID: authentication.userID,
            detail: ["app_group": appGroup])
        return Issue(session: session, secret: secret, isNew: true)
    }

    /// Where the session `id` stands (§4.3: once it ended or expired, its tokens are invalid).
    package enum Standing: Sendable {
        case live(DeviceSessionRecord)
        /// Signed out everywhere (or gone with its account).
        case ended
        case expired
    }

    package func standing(_ id: String) async throws -> Standing {
        guard let session = try await store.deviceSession(id: id), session.revokedAt == nil else { return .ended }
        return session.expiresAt > now() ? .live(session) : .expired
    }

    /// §3.4.3 at refresh with `device_sso`: a valid presented secret is kept (re-issuing one is
    /// NOT RECOMMENDED); without one the session's secret is rotated and the new one issued.
    package func continueAtRefresh(_ session: DeviceSessionRecord, presented: String?) async throws -> Issue {
        if let presented, !presented.isEmpty, presented.utf8.count <= 256,
            SecretDigest.matches(presented, digest: session.secretDigest)
        {
            return Issue(session: session, secret: presented, isNew: false)
        }
        let (secret, digest) = DeviceSecret.new()
        try await store.rotateDeviceSecret(sessionID: session.id, newDigest: digest)
        return Issue(session: session, secret: secret, isNew: true)
    }

    /// "Sign out everywhere": revokes the session of `secret` and every token issued in it, to
    /// any app. `nil` when the secret is unknown; the session otherwise.
    package func signOutEverywhere(secret: String, client: ClientRecord, origin: RequestOrigin?) async throws
        -> DeviceSessionRecord?
    {
        guard secret.utf8.count <= 256, let session = try await store.deviceSession(secretDigest: SecretDigest.of(secret)),
            client.appGroup == session.appGroup
        else { return nil }
        if try await store.revokeDeviceSession(id: session.id, now: now()) {
            audit.record(
                .deviceSessionEnded, reason: "signed_out_everywhere", origin: origin, clientID: client.clientID,
                userID: session.userID, detail: ["app_group": session.appGroup])
        }
        return session
    }
}
