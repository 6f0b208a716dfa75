// Generated from docs/resource-server.md, Swift block 2, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Hummingbird
import SesameResourceServer
import SesameResourceServerHummingbird

func snippet_docs_resource_server_2(validator: AccessTokenValidator) async throws {
    let router = Router(context: ResourceRequestContext.self)       // or your context + AccessTokenRequestContext
    let api = router.group("v1").add(middleware: AccessTokenMiddleware<ResourceRequestContext>(validator: validator, realm: "my-api"))
    api.get("me") { _, context in try context.requireAccessToken().subject }
    api.group("admin").add(middleware: RequireScopes<ResourceRequestContext>(["admin"], realm: "my-api"))
        .get { _, _ in "admins only" }
}
