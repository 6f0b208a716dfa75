import Foundation
import SesameProtocol

/// Whether an RP-Initiated Logout request names the browser's current session, so that it may
/// end without asking. RP-Initiated Logout 1.0 §2: the OP "MUST ask the End-User [whether to
/// log out] if an id_token_hint was not provided or if the supplied ID Token does not belong to
/// the current OP session with the RP and/or currently logged in End-User".
///
/// - `id_token_hint` belongs when its `sub` is the session's user and, when it carries a `sid`,
///   that `sid` is the session's (a token from an earlier session of the same user does not),
///   or names a Native SSO device session opened through it.
/// - `logout_hint` (§2: its meaning is left to the OP) names the End-User logging out as a
///   username, an email address, the user id (`sub`) or the session's `sid`. When it names
///   someone else, the request does not belong either.
/// - Without a session there is nothing to end, so nothing to ask.
struct LogoutHints: Sendable {
    /// The verified `id_token_hint`, if one was sent.
    let idToken: IDTokenClaims?
    /// The `logout_hint` value, if one was sent (empty counts as absent, RFC 6749 §3.1).
    let logoutHint: String?

    init(idToken: IDTokenClaims?, logoutHint: String?) {
        self.idToken = idToken
        self.logoutHint = logoutHint.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the session may end without asking the End-User.
    func identify(_ session: BrowserSessionRecord?, store: any ProviderStore) async throws -> Bool {
        guard let idToken else { return false }
        guard let session else { return true }
        guard idToken.sub == session.authentication.userID else { return false }
        if let sid = idToken.sid, sid != session.sid {
            guard DeviceSessionRecord.isDeviceSessionID(sid),
                let deviceSession = try await store.deviceSession(id: sid),
                deviceSession.browserSessionID == session.sid
            else { return false }
        }
        guard let logoutHint else { return true }
        if logoutHint == session.sid || logoutHint == session.authentication.userID { return true }
        guard let user = try await store.user(id: session.authentication.userID) else { return false }
        let hint = logoutHint.lowercased()
        return hint == user.username || hint == user.email
    }
}
