// Generated from Sources/Sesame/Sesame.docc/GettingStarted.md, Swift block 4, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
#if SESAME_APPLE_DECLARATIONS
import Foundation
import AuthenticationServices

@MainActor
func snippet_Sesame_GettingStarted_4(session: Session) async throws {
    for await event in session.sesame.events() {
        if case .signedOut(_, let reason) = event { print("signed out:", reason); session.account = nil }
    }
}
#endif
