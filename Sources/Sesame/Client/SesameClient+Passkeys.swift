import Foundation
import SesameProtocol

extension SesameClient {
    // MARK: Registering and managing passkeys (account API, docs/passkeys.md)

    /// Registers a new passkey for the account: fetches WebAuthn creation options
    /// (`POST /api/passkeys/options`), lets `authenticator` make the credential, and sends it
    /// (`POST /api/passkeys`), where the server runs WebAuthn §7.1.
    ///
    /// - Throws: ``SesameError/Code-swift.struct/passkeyUnavailable`` when the authenticator did not answer;
    ///   ``SesameError/Code-swift.struct/requestFailed`` with `passkey_invalid` (2022, `ceremony_step`
    ///   says which rule) or `passkey_already_registered` (3008).
    package func registerPasskey(
        using authenticator: any PasskeyAuthenticator, name: String? = nil, account: Account.ID? = nil
    ) async throws(SesameError) -> Passkey {
        let (data, response) = try await accountData(accountAPI.request("POST", "passkeys", "options"), account)
        let options = try AccountAPI.decode(CredentialCreationOptionsJSON.self, data, response, what: "passkey options")
        let credential: RegistrationResponseJSON
        do {
            credential = try await authenticator.register(options)
        } catch {
            throw .passkeyUnavailable(error)
        }
        let (answer, answerResponse) = try await accountData(
            try accountAPI.request("POST", "passkeys", json: PasskeyRegistration(credential: credential, name: name)), account)
        let passkey = try AccountAPI.decode(Passkey.self, answer, answerResponse, what: "passkey registration")
        logger.info("passkey registered", metadata: ["key_kind": "\(passkey.keyKind)"])
        return passkey
    }

    /// The account's passkeys (`GET /api/passkeys`), oldest first.
    package func passkeys(account: Account.ID? = nil) async throws(SesameError) -> [Passkey] {
        let (data, response) = try await accountData(accountAPI.request("GET", "passkeys"), account)
        return try AccountAPI.decode(PasskeyList.self, data, response, what: "passkeys").passkeys
    }

    /// Renames a passkey (`PATCH /api/passkeys/{id}`).
    package func renamePasskey(id: String, to name: String, account: Account.ID? = nil) async throws(SesameError) -> Passkey {
        let (data, response) = try await accountData(
            try accountAPI.request("PATCH", "passkeys", id, json: PasskeyRenameRequest(name: name)), account)
        return try AccountAPI.decode(Passkey.self, data, response, what: "passkey rename")
    }

    /// Removes a passkey at the server (`DELETE /api/passkeys/{id}`); refused with
    /// `last_sign_in_method` (3007) when it is the account's only way to sign in. A software
    /// authenticator's key is forgotten separately (``SoftwarePasskeyAuthenticator/remove(id:)``).
    package func removePasskey(id: String, account: Account.ID? = nil) async throws(SesameError) {
        let (data, response) = try await accountData(accountAPI.request("DELETE", "passkeys", id), account)
        try AccountAPI.check(data, response, what: "passkey removal")
    }

    // MARK: Signing in with a passkey

    /// Signs in with a passkey and no password (docs/passkeys.md) through
    /// `/authorize-challenge`: `challenge_type=passkey` gets WebAuthn options (user verification
    /// required), `authenticator` answers, and the code is redeemed as for any native sign-in
    /// (PKCE, ID token validated). Without `username` the authenticator offers the passkeys it
    /// has for the server (a discoverable credential); with one, only that account's.
    ///
    /// - Returns: the signed-in account, stored and current (``SesameEvent/signedIn(_:)``).
    /// - Throws: ``SesameError/Code-swift.struct/passkeyUnavailable`` when the authenticator did not answer;
    ///   ``SesameError/Code-swift.struct/authenticationFailed`` with `passkey_not_recognized` (2021),
    ///   `passkey_counter_regression` (2023), `passkey_locked` (2024: too many wrong signatures,
    ///   e.g. wrong passkey PINs, in a row) or `passkey_challenge_invalid` (2020);
    ///   ``SesameError/Code-swift.struct/requestFailed`` with `passkey_invalid` (2022; a wrong signature
    ///   of a known passkey carries `remaining_attempts`).
    package func signInWithPasskey(
        username: String? = nil, using authenticator: any PasskeyAuthenticator, options: NativeLoginOptions = .init()
    ) async throws(SesameError) -> Account {
        analytics.record(.signInStarted, ["method": "passkey"])
        do {
            let account = try await passkeyLogin(username: username, authenticator: authenticator, options: options)
            analytics.record(.signInSucceeded, ["method": "passkey"])
            return account
        } catch {
            analytics.failed(error, method: "passkey")
            throw error
        }
    }

    private func passkeyLogin(
        username: String?, authenticator: any PasskeyAuthenticator, options: NativeLoginOptions
    ) async throws(SesameError) -> Account {
        let start = try await nativeStart(options)
        let (metadata, challenges, pkce, extra) = (start.metadata, start.challenges, start.pkce, start.extra)
        var parameters = start.parameters
        parameters.append((AuthorizationChallengeParameter.challengeType, AuthorizationChallengeParameter.passkeyChallenge))
        if let username, !username.isEmpty { parameters.append((AuthorizationChallengeParameter.username, username)) }
        logger.info("passkey sign-in started", metadata: ["issuer": "\(metadata.issuer)"])
        guard case .insufficientAuthorization(let continuation) = try await challenges.send(parameters + extra),
            let session = continuation.authSession, let requestOptions = continuation.passkeyOptions
        else { throw .protocolViolation("the provider answered a passkey sign-in without passkey_options") }
        let code = try await challenges.answer(
            requestOptions, authSession: session, authenticator: authenticator, extra: extra)
        return try await finishNativeLogin(
            code: code, verifier: pkce.verifier, metadata: metadata, username: username, options: options)
    }
}
