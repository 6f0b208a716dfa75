import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer

/// The demo's native sign-in step (docs/first-party-and-accounts.md): a first-party app with its own login form signs
/// in with username + password through the authorization challenge endpoint
/// (draft-ietf-oauth-first-party-apps), and the provider asks for an emailed code first.
extension DemoWalkthrough {
    /// Step 9: enables email codes for `user` with the signed-in `account`, then signs in natively
    /// with a fresh app: password → MFA required → code from the outbox → `acr` mfa.
    func nativeSignIn(client: SesameClient, account: Account, user: DemoUser) async throws {
        try await client.mfa.enableEmail(account: account.id)
        steps.ok("POST /api/mfa/email with \(user.username)'s access token: email codes enabled")

        let app = SesameClient(
            configuration: SesameConfiguration(
                issuer: server.issuer, clientID: Self.clientID, redirectURI: Self.redirectURI),
            store: InMemoryCredentialStore(), transport: URLSessionTransport(),
            clock: SystemClock(), logger: Self.quietLogger)
        let challenge: MFAChallenge
        switch try await app.login(username: user.username, password: user.password) {
        case .signedIn:
            throw CLIError("expectation failed: \(user.username) signed in without the second factor")
        case .mfaRequired(let pending):
            challenge = pending
        }
        steps.detail("POST /authorize-challenge username=\(user.username) password=<hidden> code_challenge_method=S256")
        steps.detail("→ 400 insufficient_authorization, mfa_methods: \(challenge.methods.map(\.rawValue).joined(separator: ", ")), auth_session (opaque, not shown)")
        try demoExpect(challenge.methods.contains(.email), "email is offered as a second factor")

        let delivery = try await challenge.start(.email)
        steps.detail("POST /authorize-challenge mfa_method=email → \(delivery.destination ?? "code sent")")
        let code = try await latestCode(to: user.email)
        steps.detail("read the code from the server's outbox (\(code.count) digits, not shown)")

        let signedIn = try await challenge.verify(code: code)
        try demoExpect(signedIn.subject == user.sub, "the native sign-in is \(user.username)'s")
        let claims = try await app.idTokenClaims(for: signedIn.id)
        steps.detail("POST /authorize-challenge mfa_code=<redacted> → authorization_code → POST /token (PKCE verifier)")
        steps.detail("acr       \(claims.acr ?? "-")")
        steps.detail("amr       \(claims.amr?.joined(separator: " ") ?? "-")")
        try demoExpect(claims.acr == AuthenticationContextClass.multiFactor, "acr is \(AuthenticationContextClass.multiFactor)")
        try demoExpect(claims.amr?.contains(AuthenticationMethodReference.multiFactor) == true, "amr contains mfa")
        steps.ok("signed in as \(user.email) with password + emailed code; ID token validated")
    }

    /// The one-time code in the newest message to `recipient` (the in-process outbox).
    private func latestCode(to recipient: String) async throws -> String {
        guard let outbox = server.messageSender as? OutboxMessageSender else {
            throw CLIError("the demo server does not keep an outbox")
        }
        guard let body = try await outbox.messages(to: recipient).last?.body,
            let code = Self.oneTimeCode(in: body)
        else { throw CLIError("expectation failed: no code was sent to \(recipient)") }
        return code
    }

    /// The first run of 6 to 8 digits in a message body.
    static func oneTimeCode(in text: String) -> String? {
        var run = ""
        for character in text + " " {
            if character.isASCII, character.isNumber {
                run.append(character)
            } else {
                if (6...8).contains(run.count) { return run }
                run = ""
            }
        }
        return nil
    }
}
