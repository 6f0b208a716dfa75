import Foundation
import SesameProtocol

extension AuthorizationChallengeClient {
    /// Answers `passkey_options` (docs/passkeys.md): asks `authenticator` for an assertion
    /// (WebAuthn §5.1.4) and sends it with `authSession` as `passkey_assertion`; returns the
    /// authorization code.
    func answer(
        _ options: CredentialRequestOptionsJSON, authSession: String, authenticator: any PasskeyAuthenticator,
        extra: [(String, String)]
    ) async throws(SesameError) -> String {
        let assertion: AuthenticationResponseJSON
        do {
            assertion = try await authenticator.authenticate(options)
        } catch {
            throw .passkeyUnavailable(error)
        }
        return try await send(assertion, authSession: authSession, extra: extra)
    }

    /// Sends an assertion made already (by a system sheet) with `authSession`; returns the code.
    func send(_ assertion: AuthenticationResponseJSON, authSession: String, extra: [(String, String)])
        async throws(SesameError) -> String
    {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(assertion), as: UTF8.self)
        } catch {
            throw .technical(.malformedResponse("the passkey assertion could not be encoded: \(error)"))
        }
        let outcome = try await send(
            [
                (AuthorizationChallengeParameter.authSession, authSession),
                (AuthorizationChallengeParameter.passkeyAssertion, json),
            ] + extra)
        guard case .authorizationCode(let code) = outcome else {
            throw .protocolViolation("the provider asked for more authentication after a verified passkey")
        }
        return code
    }
}
