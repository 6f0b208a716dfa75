// Generated from README.md, Swift block 2, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Hummingbird
import SesameResourceServer
import SesameResourceServerHummingbird

func snippet_README_2() async throws {
    let validator = AccessTokenValidator(issuer: "https://id.example.com", audience: "https://id.example.com")
    let router = Router(context: ResourceRequestContext.self)
    router.group("v1").add(middleware: AccessTokenMiddleware<ResourceRequestContext>(validator: validator))
        .get("me") { _, context in try context.requireAccessToken().subject }
    // Any other framework: try await validator.authenticate(authorization: request.headers["Authorization"])
}
