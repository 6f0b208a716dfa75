import Foundation
import SesameProtocol
import SesameStore

/// The admin console's own registration (issue #47): the console signs its operators in through
/// the hosted login as a first-party client of this server, as Keycloak's
/// `security-admin-console` does. A public client with PKCE (RFC 7636; the console keeps the
/// verifier on the server), its one redirect `{issuer}/admin/callback`, the `sesame:admin`
/// scope, a second factor always (``MFAPolicy/always``), and 15-minute tokens: the console's
/// session is no longer than its access token.
///
/// Each process ensures it at start-up for its issuer; the admin API refuses to edit or delete
/// it (the console would lock its operators out).
package enum AdminConsoleClient {
    package static let id = "sesame-admin-console"
    package static let callbackPath = "/admin/callback"
    /// The scope of an operator's token.
    package static let scope = "sesame:admin"
    /// How long a console session lasts (its access token's lifetime).
    package static let sessionLifetime = 900

    /// The registration for `issuer` (the `iss` string, no trailing slash).
    package static func record(issuer: String, createdAt: Date) -> ClientRecord {
        ClientRecord(
            clientID: id, name: "Sesame admin console", redirectURIs: [issuer + callbackPath],
            postLogoutRedirectURIs: [issuer + "/admin/signed-out"], grantTypes: [.authorizationCode],
            allowedScopes: ["openid", scope], accessTokenLifetime: sessionLifetime, idTokenLifetime: sessionLifetime,
            refreshTokenLifetime: sessionLifetime, createdAt: createdAt, mfaPolicy: .always, firstParty: true)
    }

    /// Registers the console for `issuer`, or corrects a registration another issuer left
    /// (a changed port or host); idempotent across processes.
    package static func ensure(store: any IdentityStore, issuer: String, now: Date) async throws {
        let wanted = record(issuer: issuer, createdAt: now)
        if let existing = try await store.client(id: id), existing.redirectURIs == wanted.redirectURIs,
            existing.allowedScopes == wanted.allowedScopes, existing.mfaPolicy == wanted.mfaPolicy
        {
            return
        }
        try await store.upsertClient(wanted)
    }

    /// Whether `clientID` is the console's or `sesame admin`'s own registration, which the
    /// server makes and keeps (not one an operator registered).
    package static func isAdminTool(_ clientID: String) -> Bool { clientID == id || clientID == AdminCLIClient.id }

    /// Throws when `clientID` is the console's or `sesame admin`'s (``AdminCLIClient``): the
    /// server keeps them as they must be, so the API cannot lock its operators out.
    package static func refuseChange(_ clientID: String) throws(ProviderFailure) {
        guard !isAdminTool(clientID) else {
            throw ProviderFailure(
                .invalidRequest,
                "\(clientID) is the admin tools' own registration; the server keeps it as it must be, so it cannot be edited or deleted.")
        }
    }
}
