// Generated from Sources/Sesame/Sesame.docc/PINProtectedDevices.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_PINProtectedDevices_1(sesame: SesameClient) async throws {
    let profile = try await sesame.pin.register("493817", label: "iPhone")
    let account = try await sesame.pin.unlock(with: "493817")
}
