// Generated from Sources/Sesame/Sesame.docc/Federation.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
#if SESAME_APPLE_DECLARATIONS
import Foundation
import AuthenticationServices

func snippet_Sesame_Federation_1(sesame: SesameClient, window: ASPresentationAnchor, idToken: String, nonce: String) async throws {
    let account = try await sesame.federation.signIn(with: SignInWithAppleProvider(presentationAnchor: { window }))
    // or, with any provider's token:
    let other = try await sesame.federation.signIn(withProviderToken: idToken, provider: "google", nonce: nonce)
}
#endif
