import Foundation
import SesameProtocol

extension SesameClient {
    /// Passkeys (WebAuthn, docs/passkeys.md); take it with ``SesameClient/passkeys``: register,
    /// list, rename and remove the account's passkeys (`/api/passkeys`, the account's bearer
    /// token through ``SesameClient/data(for:account:)``), and sign in with one.
    public struct Passkeys: Sendable {
        let client: SesameClient
        private var api: AccountAPI { AccountAPI(issuer: client.configuration.issuer) }

        // MARK: Registering and managing passkeys

        /// Registers a new passkey for the account: fetches WebAuthn creation options
        /// (`POST /api/passkeys/options`), lets `authenticator` make the credential, and sends it
        /// (`POST /api/passkeys`), where the server runs WebAuthn §7.1.
        ///
        /// - Throws: ``SesameError/Code-swift.struct/passkeyUnavailable`` when the authenticator did not answer;
        ///   ``SesameError/Code-swift.struct/requestFailed`` with `passkey_invalid` (2022, `ceremony_step`
        ///   says which rule) or `passkey_already_registered` (3008).
        public func register(using authenticator: any PasskeyAuthenticator, name: String? = nil, account: Account.ID? = nil)
            async throws(SesameError) -> Passkey
        {
            let (data, response) = try await client.data(for: api.request("POST", "passkeys", "options"), account: account)
            let options = try AccountAPI.decode(CredentialCreationOptionsJSON.self, data, response, what: "passkey options")
            let credential: RegistrationResponseJSON
            do {
                credential = try await authenticator.register(options)
            } catch {
                throw .passkeyUnavailable(error)
            }
            let (answer, answerResponse) = try await client.data(
                for: try api.request("POST", "passkeys", json: PasskeyRegistration(credential: credential, name: name)),
                account: account)
            let passkey = try AccountAPI.decode(Passkey.self, answer, answerResponse, what: "passkey registration")
            client.logger.info("passkey registered", metadata: ["key_kind": "\(passkey.keyKind)"])
            return passkey
        }

        /// The account's passkeys (`GET /api/passkeys`), oldest first.
        public func list(account: Account.ID? = nil) async throws(SesameError) -> [Passkey] {
            let (data, response) = try await client.data(for: api.request("GET", "passkeys"), account: account)
            return try AccountAPI.decode(PasskeyList.self, data, response, what: "passkeys").passkeys
        }

        /// Renames a passkey (`PATCH /api/passkeys/{id}`).
        public func rename(id: String, to name: String, account: Account.ID? = nil) async throws(SesameError) -> Passkey {
            let (data, response) = try await client.data(
                for: try api.request("PATCH", "passkeys", id, json: PasskeyRenameRequest(name: name)), account: account)
            return try AccountAPI.decode(Passkey.self, data, response, what: "passkey rename")
        }

        /// Removes a passkey at the server (`DELETE /api/passkeys/{id}`); refused with
        /// `last_sign_in_method` (3007) when it is the account's only way to sign in. A software
        /// authenticator's key is forgotten separately (``SoftwarePasskeyAuthenticator/remove(id:)``).
        public func remove(id: String, account: Account.ID? = nil) async throws(SesameError) {
            let (data, response) = try await client.data(for: api.request("DELETE", "passkeys", id), account: account)
            try AccountAPI.check(data, response, what: "passkey removal")
        }

        // MARK: Signing in with a passkey

        /// Signs in with a passkey and no password through `/authorize-challenge`:
        /// `challenge_type=passkey` gets WebAuthn options (user verification required),
        /// `authenticator` answers, and the code is redeemed as for any native sign-in (PKCE, ID
        /// token validated). Without `username` the authenticator offers the passkeys it has for
        /// the server (a discoverable credential); with one, only that account's. With user
        /// verification it is a multi-factor sign-in.
        ///
        /// - Returns: the signed-in account, stored and current (``SesameEvent/signedIn(_:)``).
        /// - Throws: ``SesameError/Code-swift.struct/passkeyUnavailable`` when the authenticator did not answer;
        ///   ``SesameError/Code-swift.struct/authenticationFailed`` with `passkey_not_recognized` (2021),
        ///   `passkey_counter_regression` (2023), `passkey_locked` (2024: too many wrong signatures,
        ///   e.g. wrong passkey PINs, in a row) or `passkey_challenge_invalid` (2020);
        ///   ``SesameError/Code-swift.struct/requestFailed`` with `passkey_invalid` (2022; a wrong signature
        ///   of a known passkey carries `remaining_attempts`).
        public func signIn(
            username: String? = nil, using authenticator: any PasskeyAuthenticator, options: NativeLoginOptions = .init()
        ) async throws(SesameError) -> Account {
            let client = self.client
            return try await client.analytics.signIn("passkey") { () async throws(SesameError) -> Account in
                let start = try await client.nativeStart(options)
                var parameters = start.parameters
                parameters.append((AuthorizationChallengeParameter.challengeType, AuthorizationChallengeParameter.passkeyChallenge))
                if let username, !username.isEmpty { parameters.append((AuthorizationChallengeParameter.username, username)) }
                client.logger.info("passkey sign-in started", metadata: ["issuer": "\(start.metadata.issuer)"])
                guard case .insufficientAuthorization(let continuation) = try await start.challenges.send(parameters + start.extra),
                    let session = continuation.authSession, let requestOptions = continuation.passkeyOptions
                else { throw .protocolViolation("the provider answered a passkey sign-in without passkey_options") }
                let code = try await start.challenges.answer(
                    requestOptions, authSession: session, authenticator: authenticator, extra: start.extra)
                return try await client.finishNativeLogin(
                    code: code, verifier: start.pkce.verifier, metadata: start.metadata, username: username, options: options)
            }
        }
    }

    /// Passkeys: register, list, rename, remove, and sign in with one.
    public nonisolated var passkeys: Passkeys { Passkeys(client: self) }
}
