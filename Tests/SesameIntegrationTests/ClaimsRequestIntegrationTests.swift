import Foundation
import Logging
import Sesame
import SesameProtocol
import Testing

/// `SignInOptions.claims` (OIDC Core §5.5) from the SDK to the real server and back: the
/// requested claims arrive where they were asked for, and the SDK's checks of `acr` and `sub`
/// pass on what the server answers.
@Suite("claims request: SDK against the server")
struct ClaimsRequestIntegrationTests {
    func client(_ server: IntegrationServer) -> SesameClient {
        var logger = Logger(label: "sesame.it.claims")
        logger.logLevel = .error
        return SesameClient(
            configuration: server.configuration(redirectURI: IntegrationServer.redirectURI),
            store: InMemoryCredentialStore(), transport: URLSessionTransport(), clock: SystemClock(),
            logger: logger, retryPolicy: RetryPolicy(delays: [.zero], sleep: { _ in }))
    }

    @Test("id_token claims land in the validated ID token; an essential acr is met as requested")
    func idTokenClaims() async throws {
        try await withServer { server in
            let client = client(server)
            let claims = ClaimsRequest(
                idToken: [
                    "email": IndividualClaimRequest(essential: true),
                    "acr": IndividualClaimRequest(essential: true, values: [.string(AuthenticationContextClass.password)]),
                ])
            let account = try await client.signIn(
                with: server.agent(), options: SignInOptions(claims: claims, scopes: ["openid"]))
            let idToken = try await client.idTokenClaims()
            #expect(idToken.email == "ada@example.com")
            #expect(idToken.acr == AuthenticationContextClass.password)

            // Asking about the same user by sub: answered (and checked by the SDK).
            let again = try await client.signIn(
                with: server.agent(),
                options: SignInOptions(
                    claims: ClaimsRequest(idToken: ["sub": IndividualClaimRequest(value: .string(account.subject))]),
                    scopes: ["openid"]))
            #expect(again.subject == account.subject)
        }
    }
}
