// Generated from Sources/Sesame/Sesame.docc/Passkeys.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_Passkeys_1(sesame: SesameClient, authenticator: any PasskeyAuthenticator) async throws {
    let passkey = try await sesame.passkeys.register(using: authenticator, name: "iPhone")
    let account = try await sesame.passkeys.signIn(using: authenticator)
}
