import Foundation
import Logging
import SesameProtocol

/// The client's side of single sign-on across a vendor's apps (OpenID Connect Native SSO 1.0,
/// draft 07) that every sign-in and refresh takes part in: the `device_sso` scope, the device
/// secret sent at a code exchange and a refresh, and the shared entry written after a sign-in.
/// The handle (``SesameClient/sso``) lists the shared accounts and signs in with one.
extension SesameClient {
    // MARK: Used by sign-in and refresh

    /// The scopes of a sign-in: with a shared group and a provider that supports Native SSO,
    /// `device_sso` is added (§3.1) so the other apps can join.
    func ssoScopes(_ scopes: [String], metadata: ProviderMetadata) -> [String] {
        guard ssoShare != nil, metadata.nativeSSOSupported == true, !scopes.contains(NativeSSO.scope) else { return scopes }
        return scopes + [NativeSSO.scope]
    }

    /// The device secret to present at a code exchange (§3.2: MUST when the device has one):
    /// the most recent shared entry of this provider. The server ignores one that belongs to
    /// another user.
    func deviceSecretForSignIn() async -> String? {
        guard let ssoShare else { return nil }
        return await ssoShare.entries().first(where: isOfThisProvider)?.deviceSecret
    }

    /// Whether a shared entry is of this client's provider (`iss` has no trailing slash; the
    /// configured issuer may).
    nonisolated func isOfThisProvider(_ entry: SSOShare.Entry) -> Bool {
        let issuer = configuration.issuer.absoluteString
        return entry.issuer == issuer || entry.issuer + "/" == issuer
    }

    /// The device secret of the account's session, sent on refresh (§3.2 SHOULD).
    func deviceSecret(for account: Account) async -> String? {
        await ssoShare?.entry(for: account.id)?.deviceSecret
    }

    /// Writes the device secret and the newest ID token of a token response to the shared
    /// group, so sibling apps can join (and their copy of the ID token stays fresh).
    /// - Parameter fetchLabel: at sign-in, ask UserInfo for the label when the ID token has
    ///   none (never during a refresh, which UserInfo would wait for).
    func share(_ tokens: TokenResponse, session: StoredSession, fetchLabel: Bool = false) async {
        guard let ssoShare, let idToken = tokens.idToken,
            ScopeList.parse(tokens.scope ?? session.scope ?? "").contains(NativeSSO.scope)
        else { return }
        let existing = await ssoShare.entry(for: session.account.id)
        guard let secret = tokens.deviceSecret ?? existing?.deviceSecret else { return }
        var displayName = session.account.displayName ?? existing?.displayName
        var email = session.account.email ?? existing?.email
        if fetchLabel, displayName == nil, email == nil, let claims = try? await userInfo(for: session.account.id) {
            // The "Continue as …" label: ID tokens carry no profile claims unless asked for.
            displayName = claims.name
            email = claims.email
        }
        let entry = SSOShare.Entry(
            issuer: session.account.issuer, subject: session.account.subject, displayName: displayName,
            email: email, idToken: idToken, deviceSecret: secret, sharedBy: configuration.clientID,
            updatedAt: clock.now())
        do {
            try await ssoShare.save(entry)
        } catch {
            logger.warning("could not share the sign-in with sibling apps", metadata: ["error": "\(error)"])
        }
    }

    /// Forgets the shared entry of an account whose device session ended.
    func forgetShared(_ account: Account) async {
        await ssoShare?.remove(account.id)
    }
}
