// Generated from docs/federation.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_docs_federation_1(sesame: SesameClient, idToken: String, nonce: String, provider: any FederationProvider) async throws {
    // A token the app already has (the vendor's own SDK):
    _ = try await sesame.federation.signIn(withProviderToken: idToken, provider: "acme-id", nonce: nonce)
    // A provider SDK driven by Sesame (SignInWithAppleProvider on Apple platforms, or your own):
    _ = try await sesame.federation.signIn(with: provider)   // any FederationProvider
}
