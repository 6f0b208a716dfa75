import Foundation
import SesameProtocol
import SesameStore

/// `sesame admin`'s own registration (issue #47): the command line signs an operator in to a
/// running server as this public first-party client, in the browser (loopback redirect, RFC 8252
/// §7.3, any port), by approving on another device (RFC 8628) or with a password, always with a
/// second factor, for the `sesame:admin` scope. Its access tokens last 15 minutes and its
/// refresh tokens a working day (8 hours), after which the operator signs in again.
///
/// Each process ensures it at start-up; the admin API refuses to edit or delete it.
package enum AdminCLIClient {
    package static let id = "sesame-admin-cli"
    /// The loopback redirect; the port is the CLI's own (RFC 8252 §7.3).
    package static let redirectURI = "http://127.0.0.1/callback"
    package static let refreshLifetime = 8 * 3600

    package static func record(createdAt: Date) -> ClientRecord {
        ClientRecord(
            clientID: id, name: "sesame admin (command line)", redirectURIs: [redirectURI],
            grantTypes: [.authorizationCode, .refreshToken, .deviceCode],
            allowedScopes: ["openid", AdminConsoleClient.scope, "offline_access"],
            accessTokenLifetime: AdminConsoleClient.sessionLifetime, idTokenLifetime: AdminConsoleClient.sessionLifetime,
            refreshTokenLifetime: refreshLifetime, createdAt: createdAt, mfaPolicy: .always, firstParty: true)
    }

    /// Registers the command line's client, or restores its settings; idempotent across processes.
    package static func ensure(store: any IdentityStore, now: Date) async throws {
        let wanted = record(createdAt: now)
        if let existing = try await store.client(id: id), existing.redirectURIs == wanted.redirectURIs,
            existing.grantTypes == wanted.grantTypes, existing.allowedScopes == wanted.allowedScopes,
            existing.mfaPolicy == wanted.mfaPolicy, existing.refreshTokenLifetime == wanted.refreshTokenLifetime
        {
            return
        }
        try await store.upsertClient(wanted)
    }
}
