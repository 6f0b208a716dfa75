// Generated from docs/resource-server.md, Swift block 3, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import SesameResourceServer

func snippet_docs_resource_server_3(validator: AccessTokenValidator, authorizationHeader: String?, dpopHeaders: [String]) async throws {
    let token = try await validator.authenticate(
        authorization: authorizationHeader, dpopProofs: dpopHeaders,   // every DPoP header's value
        method: "GET", url: "https://api.example.com/v1/me")
}
