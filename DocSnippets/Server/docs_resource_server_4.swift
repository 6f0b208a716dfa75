// Generated from docs/resource-server.md, Swift block 4, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Crypto
import SQLKit
import SesameResourceServer
import SesameResourceServerSQL

func snippet_docs_resource_server_4(database: any SQLDatabase, sharedSecret: SymmetricKey) async throws {
    let replays = SQLDPoPReplayStore(database: database)   // any SQLDatabase, e.g. PostgresKit's
    try await replays.createTable()                        // safe from every instance at start
    let validator = AccessTokenValidator(
        issuer: "https://id.example.com", audience: "https://api.example.com",
        dpop: DPoPValidation(replays: replays, nonces: DPoPResourceNonces(secret: sharedSecret)))
}
