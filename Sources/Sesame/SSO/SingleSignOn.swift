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
    /// Single sign-on across a vendor's apps (OpenID Connect Native SSO 1.0, draft 07;
    /// docs/native-sso.md); take it with ``SesameClient/sso``. Needs the client's shared
    /// `ssoGroup` store.
    public struct SingleSignOn: Sendable {
        let client: SesameClient

        /// The accounts sibling apps of the same vendor signed in on this device, for a
        /// "Continue as …" screen (most recent first). Empty without a shared group
        /// (`ssoGroup` at init) or when none signed in.
        public func accounts() async -> [SSOAccount] {
            guard let share = client.ssoShare else { return [] }
            return await share.entries().filter(client.isOfThisProvider).map(\.account)
        }

        /// Signs in through a sibling app's session (Native SSO §4): the token exchange of its ID
        /// token and the device secret gives this app its own tokens, with no browser and no
        /// password. The result is a normal session (refresh, 401 retry, events).
        ///
        /// - Throws: ``SesameError/Code-swift.struct/ssoUnavailable`` when the entry is gone or the provider
        ///   refuses it (the session ended, the material is stale, this client is not in the app
        ///   group); the stale entry is then removed. Technical failures keep it.
        @discardableResult
        public func signIn(with account: SSOAccount) async throws(SesameError) -> Account {
            let client = self.client
            return try await client.analytics.signIn("sso") { () async throws(SesameError) -> Account in
                let signedIn = try await exchange(account)
                client.analytics.record(.ssoUsed, ["method": "sso"])
                return signedIn
            }
        }

        private func exchange(_ account: SSOAccount) async throws(SesameError) -> Account {
            guard let share = client.ssoShare else {
                throw .invalidConfiguration("single sign-on needs a shared group: create the client with ssoGroup")
            }
            let client = self.client
            let signedIn = try await client.signIn { (metadata, dpopKey) async throws(SesameError) -> TokenResponse in
                guard metadata.nativeSSOSupported == true else {
                    throw .ssoUnavailable("the provider does not advertise native_sso_supported")
                }
                guard let entry = await share.entry(for: account.id) else {
                    throw .ssoUnavailable("the other app's sign-in is no longer shared on this device")
                }
                do throws(SesameError) {
                    return try await client.tokenEndpoint.exchangeForSSO(
                        idToken: entry.idToken, deviceSecret: entry.deviceSecret,
                        scopes: await client.ssoScopes(client.configuration.scopes, metadata: metadata), metadata: metadata,
                        dpopKey: dpopKey)
                } catch {
                    // A refusal (any 4xx) means the shared material is of no use any more.
                    guard let apiError = error.apiError else { throw error }
                    await share.remove(entry.accountID)
                    client.logger.info("removed a shared sign-in the provider refused", metadata: ["error": "\(apiError.error)"])
                    throw .ssoUnavailable(apiError.errorDescription ?? apiError.error)
                }
            }
            guard signedIn.id == account.id else {
                await client.registry.remove(signedIn.id)
                throw .invalidIDToken(.subject, detail: "the single sign-on tokens are for another user than the shared account")
            }
            return signedIn
        }

        /// Logs out of this app only or, with ``LogoutScope/everywhere``, ends the device session:
        /// the device secret is revoked (with every token of every app issued in it), the shared
        /// entry removed, and this app's session forgotten. Local state is always cleared first;
        /// revocation failures do not throw (``LogoutResult/revocationError``).
        @discardableResult
        public func logout(_ scope: LogoutScope, account: Account.ID? = nil, revoke: Bool = true)
            async throws(SesameError) -> LogoutResult
        {
            let (session, _) = try await client.registry.session(for: account)
            let entry = await client.ssoShare?.entry(for: session.account.id)
            var result = try await client.logout(session.account.id, revoke: revoke)
            client.analytics.record(.logout, ["scope": scope.rawValue])
            guard scope == .everywhere else { return result }
            guard let entry, let share = client.ssoShare else {
                client.logger.info("no shared sign-in for the account; logged out of this app only")
                return result
            }
            await share.remove(entry.accountID)
            guard revoke else { return result }
            do throws(SesameError) {
                let metadata = try await client.metadata()
                try await client.tokenEndpoint.revoke(token: entry.deviceSecret, hint: .deviceSecret, metadata: metadata)
            } catch {
                client.logger.warning("device secret revocation failed; logged out locally", metadata: ["error": "\(error)"])
                result.revoked = false
                result.revocationError = error
            }
            return result
        }
    }

    /// Single sign-on across a vendor's apps (OpenID Connect Native SSO).
    public nonisolated var sso: SingleSignOn { SingleSignOn(client: self) }
}
