// Generated from docs/native-sso.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
#if SESAME_APPLE_DECLARATIONS
import Foundation
import AuthenticationServices

func snippet_docs_native_sso_1(configuration: SesameConfiguration, appStore: any CredentialStore) async throws {
    let group = KeychainCredentialStore(service: "com.acme.sso", accessGroup: "TEAMID.com.acme.shared")
    // Linux/desktop: try EncryptedFileCredentialStore(directory: sharedDirectory, keySource: .keyFile(sharedKeyFile))
    let sesame = SesameClient(configuration: configuration, store: appStore, ssoGroup: group)

    if let account = await sesame.sso.accounts().first {          // "Continue as \(account.label)"
        _ = try await sesame.sso.signIn(with: account)             // a normal session from here on
    }
    _ = try await sesame.sso.logout(.thisApp)      // this app only; the others stay signed in
    _ = try await sesame.sso.logout(.everywhere)   // every app of the vendor on this device
}
#endif
