// Generated from Sources/Sesame/Sesame.docc/GettingStarted.md, Swift block 2, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
#if SESAME_APPLE_DECLARATIONS
import Foundation
import AuthenticationServices

@MainActor
func snippet_Sesame_GettingStarted_2(session: Session, window: ASPresentationAnchor) async throws {
    let agent = WebAuthenticationSessionAgent(presentationAnchor: { window })
    session.account = try await session.sesame.signIn(with: agent)
}
#endif
