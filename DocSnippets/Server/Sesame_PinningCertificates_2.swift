// Generated from Sources/Sesame/Sesame.docc/PinningCertificates.md, Swift block 2, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Sesame
import SesameNIOTransport

func snippet_Sesame_PinningCertificates_2() async throws {
    func makeClient(_ configuration: SesameConfiguration, store: any CredentialStore) -> SesameClient {
        SesameClient(
            configuration: configuration, store: store,
            transport: NIOTransport(pinning: configuration.pinning))
    }
}
