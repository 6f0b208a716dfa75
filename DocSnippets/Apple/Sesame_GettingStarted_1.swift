// Generated from Sources/Sesame/Sesame.docc/GettingStarted.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
#if SESAME_APPLE_DECLARATIONS
import Foundation
import AuthenticationServices

@MainActor
final class Session {
    let sesame = SesameClient(
        configuration: SesameConfiguration(
            issuer: URL(string: "https://id.example.com")!, clientID: "my-app",
            redirectURI: URL(string: "com.example.app:/callback")!,
            allowedOrigins: [URL(string: "https://api.example.com")!]),
        store: KeychainCredentialStore(service: "com.example.app.sesame"))
    var account: Account?   // @Published in an ObservableObject, or an @Observable model

    func start() async { account = await sesame.restore() }   // no network at launch
}
#endif
