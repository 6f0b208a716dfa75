// Generated from docs/device-authorization.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_docs_device_authorization_1(sesame: SesameClient) async throws {
    for try await state in sesame.signInOnAnotherDevice(deviceName: "Living room TV") {
        switch state {
        case .showCode(let prompt): print("Open \(prompt.verificationURI) and enter \(prompt.userCode)")  // or a QR code of prompt.qrCodeURI
        case .waiting: break
        case .approved(let account): print("Signed in as \(account.email ?? account.subject)")
        case .denied: print("The sign-in was declined.")
        case .expired: print("The code expired; try again.")
        }
    }
}
