// Generated from Sources/Sesame/Sesame.docc/NativeSignInAndMFA.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_NativeSignInAndMFA_1(sesame: SesameClient, password: String, readCode: () async -> String) async throws {
    switch try await sesame.login(username: "alice", password: password) {
    case .signedIn(let account):
        print("signed in as", account.id)
    case .mfaRequired(let challenge):
        let delivery = try await challenge.start(challenge.methods[0])   // e.g. a code by email
        print("A code was sent to", delivery.destination ?? "you")
        let account = try await challenge.verify(code: await readCode())  // what the user typed
        print("signed in as", account.id)
    }
}
