// Generated from Sources/Sesame/Sesame.docc/PinningCertificates.md, Swift block 1, by DocumentationSnippetTests.
// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
import Foundation
import Sesame

func snippet_Sesame_PinningCertificates_1(issuer: URL, redirect: URL) async throws {
    var configuration = SesameConfiguration(issuer: issuer, clientID: "app", redirectURI: redirect)
    configuration.pinning = CertificatePinning(hosts: [
        PinnedHost(
            host: "id.example.com",
            pins: [
                try PublicKeyPin("sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="),   // the key in use
                try PublicKeyPin("sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="),   // the backup key
            ],
            expires: ISO8601DateFormatter().date(from: "2027-12-31T00:00:00Z"))
    ])
    try configuration.validate()
}
