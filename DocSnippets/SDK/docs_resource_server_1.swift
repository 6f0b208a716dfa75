// Generated from docs/resource-server.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import SesameResourceServer

func snippet_docs_resource_server_1(authorizationHeader: String?) async throws {
    let validator = AccessTokenValidator(
        issuer: "https://id.example.com",        // exactly the issuer of the discovery document
        audience: "https://api.example.com")     // this API's identifier in `aud` (see "Audience" below)

    // Any framework: hand it the Authorization header's value.
    do {
        let token = try await validator.authenticate(
            authorization: authorizationHeader, requiredScopes: ["profile"])
        print(token.subject, token.clientID, token.scopes, token.acr ?? "-", token.authTime ?? "-")
    } catch {
        // error.status (401, 403, 400, 503), error.rule (which check failed), error.message (for logs),
        // BearerChallenge(refusing: error, realm: "my-api").headerValue for WWW-Authenticate
    }
}
