// Generated from Sources/Sesame/Sesame.docc/LinuxAndDesktop.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame
import SesameLoopback

func snippet_Sesame_LinuxAndDesktop_1() async throws {
    let sesame = SesameClient(
        configuration: SesameConfiguration(
            issuer: URL(string: "http://127.0.0.1:8080")!, clientID: "my-tool",
            redirectURI: URL(string: "http://127.0.0.1/callback")!),
        store: try EncryptedFileCredentialStore.default(applicationName: "my-tool"))
    _ = try await sesame.signIn(with: LoopbackBrowserAgent())
}
