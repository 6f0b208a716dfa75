// Generated from Sources/Sesame/Sesame.docc/SenderConstrainedTokens.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_SenderConstrainedTokens_1(issuer: URL, redirect: URL) async throws {
    var configuration = SesameConfiguration(issuer: issuer, clientID: "app", redirectURI: redirect)
    configuration.dpop = .required      // or .whenSupported
}
