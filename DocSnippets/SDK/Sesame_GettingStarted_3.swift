// Generated from Sources/Sesame/Sesame.docc/GettingStarted.md, Swift block 3, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_GettingStarted_3(sesame: SesameClient) async throws {
    var configuration = SesameConfiguration(
        issuer: URL(string: "https://id.example.com")!, clientID: "com.example.shop",
        redirectURI: URL(string: "com.example.shop:/oauth2redirect")!,
        scopes: ["openid", "offline_access", "orders:read"])
    configuration.apis = [URL(string: "https://shop-api.example.com")!]

    // Later, with a client made from `configuration`: this request gets the shop API's own token.
    let orders = URLRequest(url: URL(string: "https://shop-api.example.com/v1/orders")!)
    let (data, response) = try await sesame.data(for: orders)
}
