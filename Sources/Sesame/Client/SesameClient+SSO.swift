import Foundation
import Logging
import SesameProtocol

/// What ``SesameClient/SingleSignOn/logout(_:account:revoke:)`` ends.
public enum LogoutScope: String, Sendable, CaseIterable {
    /// This app's tokens only; the vendor's other apps stay signed in and the account stays
    /// offered for single sign-on.
    case thisApp = "this_app"
    /// The device session: every app of the vendor on this device is signed out (their next
    /// refresh fails and they report ``SignOutReason/revokedElsewhere``).
    case everywhere
}

extension SesameClient {
    // MARK: Single sign-on across a vendor's apps (OpenID Connect Native SSO 1.0, draft 07)

    /// The accounts sibling apps of the same vendor signed in on this device, for a
    /// "Continue as …" screen (most recent first). Empty without a shared group
    /// (`ssoGroup` at init) or when none signed in.
    package func ssoAccounts() async -> [SSOAccount] {
        guard let ssoShare else { return [] }
        return await ssoShare.entries().filter(isOfThisProvider).map(\.account)
    }

    /// Signs in through a sibling app's session (Native SSO §4): the token exchange of its ID
    /// token and the device secret gives this app its own tokens, with no browser and no
    /// password. The result is a normal session (refresh, 401 retry, events).
    ///
    /// - Throws: ``SesameError/Code-swift.struct/ssoUnavailable`` when the entry is gone or the provider
    ///   refuses it (the session ended, the material is stale, this client is not in the app
    ///   group); the stale entry is then removed. Technical failures keep it.
    @discardableResult
    package func signIn(withSSO account: SSOAccount) async throws(SesameError) -> Account {
        try await analytics.signIn("sso") { () async throws(SesameError) -> Account in
            let signedIn = try await exchangeSSO(account)
            analytics.record(.ssoUsed, ["method": "sso"])
            return signedIn
        }
    }

    private func exchangeSSO(_ account: SSOAccount) async throws(SesameError) -> Account {
        guard let ssoShare else {
            throw .invalidConfiguration("single sign-on needs a shared group: create the client with ssoGroup")
        }
        let metadata = try await metadata()
        guard metadata.nativeSSOSupported == true else {
            throw .ssoUnavailable("the provider does not advertise native_sso_supported")
        }
        guard let entry = await ssoShare.entry(for: account.id) else {
            throw .ssoUnavailable("the other app's sign-in is no longer shared on this device")
        }
        let tokens: TokenResponse
        let dpopKey = try dpopKeyForSignIn(metadata)
        do {
            tokens = try await tokenEndpoint.exchangeForSSO(
                idToken: entry.idToken, deviceSecret: entry.deviceSecret,
                scopes: ssoScopes(configuration.scopes, metadata: metadata), metadata: metadata, dpopKey: dpopKey)
        } catch {
            // A refusal (any 4xx) means the shared material is of no use any more.
            if let apiError = error.apiError {
                await ssoShare.remove(entry.accountID)
                logger.info("removed a shared sign-in the provider refused", metadata: ["error": "\(apiError.error)"])
                throw .ssoUnavailable(apiError.errorDescription ?? apiError.error)
            }
            throw error
        }
        let signedIn = try await establishSession(
            tokens,
            expected: expectations(
                metadata: metadata, nonce: nil, maxAge: nil, acrValues: nil, accessToken: tokens.accessToken),
            metadata: metadata, username: nil, dpopKey: dpopKey)
        guard signedIn.id == account.id else {
            await registry.remove(signedIn.id)
            throw .invalidIDToken(.subject, detail: "the single sign-on tokens are for another user than the shared account")
        }
        return signedIn
    }

    /// Logs out of this app only or, with ``LogoutScope/everywhere``, ends the device session:
    /// the device secret is revoked (with every token of every app issued in it), the shared
    /// entry removed, and this app's session forgotten. Local state is always cleared first;
    /// revocation failures do not throw (``LogoutResult/revocationError``).
    @discardableResult
    package func logout(_ scope: LogoutScope, account: Account.ID? = nil, revoke: Bool = true) async throws(SesameError)
        -> LogoutResult
    {
        let (session, _) = try await registry.session(for: account)
        let entry = await ssoShare?.entry(for: session.account.id)
        var result = try await logout(session.account.id, revoke: revoke)
        analytics.record(.logout, ["scope": scope.rawValue])
        guard scope == .everywhere else { return result }
        guard let entry, let ssoShare else {
            logger.info("no shared sign-in for the account; logged out of this app only")
            return result
        }
        await ssoShare.remove(entry.accountID)
        guard revoke else { return result }
        do throws(SesameError) {
            let metadata = try await metadata()
            try await tokenEndpoint.revoke(token: entry.deviceSecret, hint: .deviceSecret, metadata: metadata)
        } catch {
            logger.warning("device secret revocation failed; logged out locally", metadata: ["error": "\(error)"])
            result.revoked = false
            result.revocationError = error
        }
        return result
    }

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
    private func isOfThisProvider(_ entry: SSOShare.Entry) -> Bool {
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
