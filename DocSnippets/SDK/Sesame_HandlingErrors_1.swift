// Generated from Sources/Sesame/Sesame.docc/HandlingErrors.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_HandlingErrors_1(sesame: SesameClient, pin: String) async throws {
    do {
        _ = try await sesame.pin.unlock(with: pin)
    } catch {
        switch error.category {
        case .cancelled: break                                   // the user closed the sheet
        case .invalidInput:                                      // a wrong PIN, a refused field
            if error.code == .wrongPIN { print("Wrong PIN, \(error.remainingPINAttempts ?? 0) left") }
            else { print(error.description) }                    // show it next to the field
        case .signInRequired: print("Sign in again")             // show the sign-in screen
        case .stepUpRequired: print("Confirm it's you")          // sesame.mfa.stepUp(…)
        case .unavailable: print("Try again later:", error.description)   // offline, server down, no biometrics
        default: print("Report:", error)                         // misconfigured: the app's or provider's fault
        }
    }
}
