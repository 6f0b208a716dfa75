// Generated from Sources/SesameResourceServer/SesameResourceServer.docc/SesameResourceServer.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import SesameResourceServer

func snippet_SesameResourceServer_SesameResourceServer_1(authorizationHeader: String?) async throws {
    let validator = AccessTokenValidator(issuer: "https://id.example.com", audience: "https://id.example.com")
    let token = try await validator.authenticate(authorization: authorizationHeader, requiredScopes: ["profile"])
    print(token.subject, token.clientID, token.scopes)
}
