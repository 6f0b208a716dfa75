import Foundation
import Hummingbird
import SesameProtocol

/// Finds the browser SSO session named by the session cookie (``BrowserCookies/sessionName``).
/// The cookie holds a random 256-bit id; the store is searched by its digest only.
struct BrowserSessionResolver: Sendable {
    let store: any IdentityStore
    let cookies: BrowserCookies
    let now: @Sendable () -> Date

    /// The live session, or `nil` when there is no cookie or the session ended or expired.
    func current(_ request: Request) async throws -> BrowserSessionRecord? {
        guard let id = cookies.sessionID(in: request), id.utf8.count <= 256
        else { return nil }
        guard let session = try await store.browserSession(idDigest: SecretDigest.of(id)),
            session.expiresAt > now()
        else { return nil }
        return session
    }

    /// Starts a session for a fresh authentication; returns the cookie value and the record.
    func start(
        _ authentication: AuthenticationContext, lifetime: TimeInterval
    ) async throws -> (cookieValue: String, record: BrowserSessionRecord) {
        let id = SecureRandom.token()
        let now = now()
        let record = BrowserSessionRecord(
            idDigest: SecretDigest.of(id), sid: SecureRandom.token(byteCount: 16),
            authentication: authentication, createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
        try await store.insertBrowserSession(record)
        return (id, record)
    }

    /// Ends the session named by the request's cookie, if any; returns it.
    @discardableResult
    func end(_ request: Request) async throws -> BrowserSessionRecord? {
        guard let id = cookies.sessionID(in: request) else { return nil }
        let digest = SecretDigest.of(id)
        let session = try await store.browserSession(idDigest: digest)
        try await store.removeBrowserSession(idDigest: digest)
        return session
    }
}
