// Generated from docs/resource-server.md, Swift block 6, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Hummingbird
import SesameResourceServer
import SesameResourceServerHummingbird

func snippet_docs_resource_server_6(validator: AccessTokenValidator) async throws {
    let router = Router(context: ResourceRequestContext.self)
    router.group("v1").add(middleware: AccessTokenMiddleware(validator: validator, certificateProxies: ["10.0.0.5"]))
}
