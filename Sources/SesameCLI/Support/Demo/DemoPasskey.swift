import Foundation
import Sesame
import SesameProtocol
import SesameServer

/// The demo's passkey step (docs/passkeys.md): after a password sign-in the user registers a
/// passkey (Sesame's software authenticator, its key sealed under a PIN), then a fresh
/// app signs in with the passkey alone.
extension DemoWalkthrough {
    /// Step 15: register, list, sign in with no password (`acr` mfa, `amr` swk user pin mfa).
    func passkey(user: DemoUser) async throws {
        let keys = InMemoryCredentialStore()
        // The key is sealed under the passkey PIN (scrypt): the PIN is its user verification.
        let authenticator = SoftwarePasskeyAuthenticator(
            store: keys, origin: ClientSession.origin(of: server.issuer), pin: { _ in "4711" })
        let configuration = SesameConfiguration(issuer: server.issuer, clientID: Self.clientID, redirectURI: Self.redirectURI)
        func app() -> SesameClient {
            SesameClient(
                configuration: configuration, store: InMemoryCredentialStore(), transport: URLSessionTransport(),
                clock: SystemClock(), logger: Self.quietLogger)
        }
        let phone = app()
        guard case .signedIn = try await phone.login(username: user.username, password: user.password) else {
            throw CLIError("expectation failed: \(user.username) needed a second factor")
        }
        let passkey = try await phone.passkeys.register(using: authenticator, name: "Demo passkey")
        steps.detail("POST /api/passkeys/options → navigator.credentials.create() → POST /api/passkeys (WebAuthn §7.1)")
        steps.detail("passkey \(passkey.id.prefix(12))…, key kind \(passkey.keyKind), \(try await phone.passkeys.list().count) on the account")

        let laptop = app()
        let account = try await laptop.passkeys.signIn(using: authenticator)
        let claims = try await laptop.idTokenClaims(for: account.id)
        steps.detail("POST /authorize-challenge challenge_type=passkey → passkey_options → passkey_assertion (§7.2) → code")
        steps.detail("acr       \(claims.acr ?? "-")")
        steps.detail("amr       \(claims.amr?.joined(separator: " ") ?? "-")")
        try demoExpect(claims.amr == ["swk", "user", "pin", "mfa"], "amr is swk user pin mfa")
        steps.ok("signed in as \(user.email) with the passkey alone, no password")
    }
}
