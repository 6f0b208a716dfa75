import Foundation
import SesameProtocol
import SesameStore

/// Authorization codes issued by `POST /authorize-challenge` (draft-ietf-oauth-first-party-apps
/// §5.2.1). They go through the same store path as `/authorize` codes (single use, 60 s, PKCE
/// checked at `/token`), without a redirect URI: the stored `redirect_uri` is empty and the
/// token request sends none (``AuthorizationCodeGrant``).
package enum FirstPartyCode {
    /// The stored redirect URI of a first-party code: none.
    package static let noRedirectURI = ""

    /// A re-authentication (`max_age=0`) code's access token lives at most this long.
    package static let reauthenticationAccessTokenLifetime = 300

    /// Issues a code for `authentication`; returns it (shown once, stored as a digest). Its tokens
    /// are for `resources` (RFC 8707: the client's default API, as `/authorize` without `resource`).
    package static func issue(
        store: any IdentityStore & MFAStore, lifetime: TimeInterval, now: Date, clientID: String, scope: String,
        codeChallenge: String, authentication: AuthenticationContext, reauthentication: Bool, resources: [String] = []
    ) async throws -> String {
        let code = SecureRandom.token()
        let digest = SecretDigest.of(code)
        let expiresAt = now.addingTimeInterval(lifetime)
        // The marker is written first, so the code never exists without it.
        if reauthentication {
            try await store.markReauthenticationCode(digest: digest, expiresAt: expiresAt)
        }
        var record = AuthorizationCodeRecord(
            codeDigest: digest, clientID: clientID, redirectURI: noRedirectURI, scope: scope,
            nonce: nil, codeChallenge: codeChallenge, authentication: authentication,
            sessionID: nil, expiresAt: expiresAt)
        record.resources = resources
        try await store.insertAuthorizationCode(record)
        return code
    }
}
