// Generated from Sources/Sesame/Sesame.docc/SingleSignOnAcrossApps.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
#if SESAME_APPLE_DECLARATIONS
import Foundation
import AuthenticationServices

func snippet_Sesame_SingleSignOnAcrossApps_1(configuration: SesameConfiguration, ownStore: any CredentialStore) async throws {
    let shared = KeychainCredentialStore(service: "com.example.sso", accessGroup: "TEAMID.com.example.shared")
    let sesame = SesameClient(configuration: configuration, store: ownStore, ssoGroup: shared)

    if let account = await sesame.sso.accounts().first {
        _ = try await sesame.sso.signIn(with: account)     // a token exchange; no browser
    }
}
#endif
