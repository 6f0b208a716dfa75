// Generated from docs/resource-server.md, Swift block 5, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import SesameResourceServer

func snippet_docs_resource_server_5(validator: AccessTokenValidator, authorization: String?, certificate: [UInt8]?) async throws {
    let token = try await validator.authenticate(authorization: authorization, clientCertificate: { certificate })
}
