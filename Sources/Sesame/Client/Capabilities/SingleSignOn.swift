import Foundation
import SesameProtocol

extension SesameClient {
    /// Single sign-on across a vendor's apps (OpenID Connect Native SSO, docs/native-sso.md);
    /// take it with ``SesameClient/sso``. Needs the client's shared `ssoGroup` store.
    public struct SingleSignOn: Sendable {
        let client: SesameClient

        /// The accounts signed in in a sibling app of the group.
        public func accounts() async -> [SSOAccount] { await client.ssoAccounts() }

        /// Signs in as a sibling app's account (a token exchange; no browser).
        public func signIn(with account: SSOAccount) async throws(SesameError) -> Account {
            try await client.signIn(withSSO: account)
        }

        /// Logs out here only, or in every app of the group.
        public func logout(_ scope: LogoutScope, account: Account.ID? = nil, revoke: Bool = true)
            async throws(SesameError) -> LogoutResult
        {
            try await client.logout(scope, account: account, revoke: revoke)
        }
    }
}
