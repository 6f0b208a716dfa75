// Generated from Sources/Sesame/Sesame.docc/SignInOnAnotherDevice.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_SignInOnAnotherDevice_1(sesame: SesameClient) async throws {
    let signIn = sesame.signInOnAnotherDevice(deviceName: "Living room TV")
    do {
        for try await state in signIn {
            switch state {
            case .showCode(let prompt):
                print("Code:", prompt.userCode)                          // BDFH-JKLM, large on screen
                print("Open:", prompt.verificationURI)                   // https://id.example.com/device
                print("Or scan:", prompt.qrCodeURI)                      // the page with the code filled in
            case .waiting:
                break                                                    // still waiting for the user
            case .approved(let account):
                print("Signed in as", account.email ?? account.subject)
            case .denied:
                print("The sign-in was declined on the other device.")
            case .expired:
                print("The code expired. Try again for a new one.")
            }
        }
    } catch {
        print(error)                                                     // a SesameError: it says what to do
    }
}
