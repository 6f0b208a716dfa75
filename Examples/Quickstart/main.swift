// The README's desktop app, runnable: signs in through the system browser (a loopback redirect,
// RFC 8252 §7.3), calls an API with the access token, refreshes it, signs out.
//
//     sesame serve                                                  # http://127.0.0.1:8080
//     sesame client add quickstart --redirect-uri http://127.0.0.1/callback --first-party
//     sesame user add alice --email alice@example.com
//     sesame example-api --issuer http://127.0.0.1:8080 --port 8081
//     swift run --package-path SDK sesame-quickstart
//
// Settings from the environment: SESAME_ISSUER (http://127.0.0.1:8080), SESAME_CLIENT_ID
// (quickstart), SESAME_API (http://127.0.0.1:8081/me). The browser is the system's (`$BROWSER`,
// then xdg-open or open). Tokens are kept in an encrypted file store under the user's data
// directory, so a second run resumes without a browser.
import Foundation
import Sesame
import SesameLoopback

let environment = ProcessInfo.processInfo.environment
let issuer = environment["SESAME_ISSUER"] ?? "http://127.0.0.1:8080"
let api = URL(string: environment["SESAME_API"] ?? "http://127.0.0.1:8081/me")!
let apiOrigin = URL(string: "\(api.scheme ?? "http")://\(api.host ?? "127.0.0.1")\(api.port.map { ":\($0)" } ?? "")")!

do {
    let configuration = SesameConfiguration(
        issuer: URL(string: issuer)!, clientID: environment["SESAME_CLIENT_ID"] ?? "quickstart",
        redirectURI: URL(string: "http://127.0.0.1/callback")!, allowedOrigins: [apiOrigin])
    try configuration.validate()
    let sesame = SesameClient(
        configuration: configuration, store: try EncryptedFileCredentialStore.default(applicationName: "sesame-quickstart"))

    // 1. Resume the last account, or sign in through the browser.
    var account = await sesame.restore()
    if let resumed = account {
        print("1. resumed \(resumed.email ?? resumed.subject) without the browser")
    } else {
        print("1. signing in through the browser…")
        account = try await sesame.signIn(with: LoopbackBrowserAgent(timeout: 300))
        print("   signed in as \(account?.email ?? account?.subject ?? "?")")
    }

    // 2. Call the API: the token goes only to the configured origin.
    let (body, response) = try await sesame.data(for: URLRequest(url: api))
    print("2. GET \(api.path) → \(response.statusCode) \(String(decoding: body, as: UTF8.self))")

    // 3. Refresh now (normally it happens by itself ahead of expiry).
    _ = try await sesame.validAccessToken(forceRefresh: true)
    let (_, again) = try await sesame.data(for: URLRequest(url: api))
    print("3. refreshed; GET \(api.path) → \(again.statusCode)")

    // 4. Sign out: forget locally and revoke at the server.
    let result = try await sesame.logout()
    print("4. signed out (revoked at the server: \(result.revoked))")
} catch {
    // A SesameError says what happened and what to do.
    FileHandle.standardError.write(Data("sesame-quickstart: \(error)\n".utf8))
    exit(1)
}
