// Generated from Sources/Sesame/Sesame.docc/Sesame.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_Sesame_1(agent: any BrowserAgent) async throws {
    let sesame = SesameClient(
        configuration: SesameConfiguration(
            issuer: URL(string: "https://id.example.com")!, clientID: "my-app",
            redirectURI: URL(string: "com.example.app:/callback")!),
        store: try EncryptedFileCredentialStore.default(applicationName: "my-app"))

    if await sesame.restore() == nil {
        _ = try await sesame.signIn(with: agent)          // the system browser sheet on iOS
    }
    let (body, response) = try await sesame.data(for: URLRequest(url: URL(string: "https://api.example.com/me")!))
}
