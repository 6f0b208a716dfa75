// Generated from docs/resource-server.md, Swift block 7, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import SesameResourceServer

func snippet_docs_resource_server_7() async throws {
    let validator = AccessTokenValidator(
        issuer: "https://id.example.com", audience: "https://shop-api.example.com")
}
