import Foundation
import SesameProtocol

extension SesameClient {
    /// Passkeys (WebAuthn, docs/passkeys.md); take it with ``SesameClient/passkeys``.
    public struct Passkeys: Sendable {
        let client: SesameClient

        /// Creates a passkey with `authenticator` and registers it for the signed-in account.
        public func register(using authenticator: any PasskeyAuthenticator, name: String? = nil, account: Account.ID? = nil)
            async throws(SesameError) -> Passkey
        {
            try await client.registerPasskey(using: authenticator, name: name, account: account)
        }

        /// The account's passkeys.
        public func list(account: Account.ID? = nil) async throws(SesameError) -> [Passkey] {
            try await client.passkeys(account: account)
        }

        /// Renames a passkey.
        public func rename(id: String, to name: String, account: Account.ID? = nil) async throws(SesameError) -> Passkey {
            try await client.renamePasskey(id: id, to: name, account: account)
        }

        /// Removes a passkey from the account.
        public func remove(id: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.removePasskey(id: id, account: account)
        }

        /// Signs in with a passkey alone (with user verification it is a multi-factor sign-in).
        public func signIn(
            username: String? = nil, using authenticator: any PasskeyAuthenticator, options: NativeLoginOptions = .init()
        ) async throws(SesameError) -> Account {
            try await client.signInWithPasskey(username: username, using: authenticator, options: options)
        }
    }
}
