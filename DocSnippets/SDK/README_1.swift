// Generated from README.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import SesameLoopback

func snippet_README_1() async throws {
    let configuration = SesameConfiguration(
        issuer: URL(string: "http://127.0.0.1:8080")!, clientID: "my-app",
        redirectURI: URL(string: "http://127.0.0.1/callback")!,       // any free loopback port (RFC 8252 §7.3)
        allowedOrigins: [URL(string: "http://127.0.0.1:8081")!])      // the APIs data(for:) may send the token to
    // or: try SesameConfiguration.load(from: URL(fileURLWithPath: "sesame.json"))
    let store = try EncryptedFileCredentialStore.default(applicationName: "my-app")   // Keychain on Apple: KeychainCredentialStore
    let sesame = SesameClient(configuration: configuration, store: store)

    if await sesame.restore() == nil {                   // resume the last user at launch, no network
        _ = try await sesame.signIn(with: LoopbackBrowserAgent())   // WebAuthenticationSessionAgent on iOS
    }
    let request = URLRequest(url: URL(string: "http://127.0.0.1:8081/me")!)
    let (body, response) = try await sesame.data(for: request)   // token added; 401 → refresh once, retry once
    print(response.statusCode, String(decoding: body, as: UTF8.self))

    for await event in sesame.events() { print(event) }  // signedIn, refreshed, signedOut(reason), storeRepaired
}
