// Generated from docs/pin-devices.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
#if SESAME_APPLE_DECLARATIONS
import Foundation
import AuthenticationServices

func snippet_docs_pin_devices_1(sesame: SesameClient) async throws {
    let profile = try await sesame.pin.register("975310", label: "iPhone")  // policy checked first, rule by rule
    _ = try await sesame.pin.unlock(with: "975310")                 // → Account, current; memory-only session
    try await sesame.pin.change(from: "975310", to: "864209")       // proven by one unlock, then resealed
    try await sesame.pin.enableBiometricUnlock(using: KeychainBiometricUnlocker(), pin: "864209")
    _ = try await sesame.pin.unlockWithBiometrics(using: KeychainBiometricUnlocker(), reason: "Unlock your account")
    let result = try await sesame.pin.deregister(profile: profile.id)  // local always; result.serverReached
}
#endif
