// Generated from docs/resource-server.md, Swift block 8, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Hummingbird
import SesameResourceServer
import SesameResourceServerHummingbird

func snippet_docs_resource_server_8(router: Router<ResourceRequestContext>) async throws {
    let metadata = ProtectedResourceMetadata(
        resource: "https://api.example.com", authorizationServers: ["https://id.example.com"],
        scopesSupported: ["orders:read", "orders:write"], resourceName: "Orders API")
    let validator = AccessTokenValidator(issuer: "https://id.example.com", audience: "https://api.example.com")
    let api = router.group("v1").add(middleware: try router.addProtectedResource(metadata, validator: validator))
    api.get("orders") { _, context in try context.requireAccessToken().subject }
}
