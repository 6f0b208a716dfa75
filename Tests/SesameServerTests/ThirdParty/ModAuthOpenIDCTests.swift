import Foundation
import SesameNIOTransport
import SesameProtocol
import TestSupport
import SesameTesting
import StoreTesting
import Testing

@testable import SesameServer

/// Whether the third-party suite runs: where Apache with mod_auth_openidc is installed, and
/// always in CI (`CI=true`), where a missing one fails instead of skipping.
let apacheAvailable = ApacheRelyingParty.unavailableReason == nil || ApacheRelyingParty.isRequired

/// A relying party we did not write: Apache httpd with mod_auth_openidc 2.4 (Debian), a
/// confidential client (`client_secret_basic`, PKCE S256), against the real server over HTTP.
/// It signs in through the hosted login page, validates our ID token, calls `/userinfo`,
/// refreshes (rotation), and signs out through the end-session endpoint with `id_token_hint`;
/// nothing it does is recorded as refresh-token reuse (issue #28 §4 found five such false
/// records).
@Suite(
    "A third-party relying party: Apache mod_auth_openidc", .serialized,
    .enabled(if: apacheAvailable, "no Apache with mod_auth_openidc here; install apache2 and libapache2-mod-auth-openidc"))
struct ModAuthOpenIDCTests {
    static let scope = "openid email profile offline_access"

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
    }

    /// Over HTTP, and over the server's own TLS (issue #48): the module verifies the server's
    /// certificate against the test's CA (`OIDCCABundlePath`), and the browser's requests to the
    /// server go over TLS too.
    @Test(
        "sign-in through the hosted page, two refreshes, sign-out through the end-session endpoint; no false reuse in the audit log",
        arguments: [false, true])
    func signInRefreshSignOut(overTLS: Bool) async throws {
        if let reason = ApacheRelyingParty.unavailableReason { Issue.record("\(reason)"); return }
        let certificates = overTLS ? try await TestCertificates.make() : nil
        defer { certificates?.remove() }
        try await withTestServer(configure: { configuration in
            if let certificates {
                configuration.tls = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
            }
        }) { server in
            #expect(server.issuer.hasPrefix(overTLS ? "https://" : "http://"))
            let admin = ServerAdmin(store: server.store, hasher: TestServer.hasher, keyRing: server.keyRing)
            // Post-logout redirect URIs match exactly (RP-Initiated Logout 1.0 §3): the port is known first.
            let port = try ApacheRelyingParty.freePort()
            let (_, secret) = try await admin.addClient(
                ClientSpec(
                    clientID: "apache", confidential: true, redirectURIs: ["http://127.0.0.1/protected/redirect_uri"],
                    postLogoutRedirectURIs: ["http://127.0.0.1:\(port)/signed-out.html"]))
            let apache = try await ApacheRelyingParty.start(
                port: port, issuer: server.issuer, clientID: "apache", secret: try #require(secret), scope: Self.scope,
                caFile: certificates?.caFile)
            defer { apache.stop() }
            let browser: HTTPTestClient
            if let certificates {
                let transport = NIOTransport(trustRoots: try NIOTransport.TrustRoots.pemFile(certificates.caFile))
                browser = HTTPTestClient(baseURL: URL(string: server.issuer)!, send: transport.send)
            } else {
                browser = server.client()
            }

            if overTLS {
                // The module verifies the server: without the test's CA it reaches nothing.
                let untrusting = try await ApacheRelyingParty.start(
                    port: try ApacheRelyingParty.freePort(), issuer: server.issuer, clientID: "apache",
                    secret: try #require(secret), scope: Self.scope)
                defer { untrusting.stop() }
                let refused = try await browser.get(untrusting.base + "/protected/")
                #expect(refused.status >= 400 && refused.location == nil, "\(refused.status) \(refused.location ?? "")")
            }

            // The protected page sends the browser to /authorize: code flow, PKCE S256, nonce.
            let first = try await browser.get(apache.base + "/protected/")
            #expect(first.status == 302, "\(apache.errorLog)")
            let authorize = try #require(first.location)
            #expect(authorize.hasPrefix(server.issuer + "/authorize?"), "\(authorize)")
            let request = try #require(URLComponents(string: authorize)?.queryItems)
            let query = Dictionary(uniqueKeysWithValues: request.map { ($0.name, $0.value ?? "") })
            #expect(query["code_challenge_method"] == "S256" && query["nonce"]?.isEmpty == false && query["client_id"] == "apache")

            // The hosted login page, then back to Apache, which redeems the code.
            let page = try await browser.get(authorize)
            var fields = HTMLForm(html: page.text).fields
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password
            let login = try await browser.postForm("/login", fields)
            #expect(login.status == 303)
            let callback = try #require(login.location)
            #expect(callback.hasPrefix(apache.redirectURI + "?code="), "\(callback)")
            let redeemed = try await browser.get(callback)
            #expect(redeemed.status == 302, "\(redeemed.text) \(apache.errorLog)")
            let content = try await browser.get(apache.base + "/protected/")
            #expect(content.status == 200 && content.text == "protected content\n", "\(apache.errorLog)")

            // What the module holds: our ID token's claims and /userinfo's.
            let info = try Self.json(try await browser.get(apache.redirectURI + "?info=json"))
            let user = try #require(try await server.store.user(login: Fixtures.username))
            #expect((info["id_token"] as? [String: Any])?["sub"] as? String == user.id)
            #expect((info["userinfo"] as? [String: Any])?["email"] as? String == Fixtures.email)
            var accessToken = try #require(info["access_token"] as? String)
            #expect((info["refresh_token"] as? String)?.isEmpty == false)

            // Refresh twice (rotation): a new access token each time.
            for round in 1...2 {
                let refreshed = try Self.json(
                    try await browser.get(apache.redirectURI + "?info=json&access_token_refresh_interval=0"))
                let next = try #require(refreshed["access_token"] as? String, "round \(round): \(apache.errorLog)")
                #expect(next != accessToken, "round \(round)")
                accessToken = next
            }

            // Sign-out: the module sends the browser to our end-session endpoint.
            let target = apache.base + "/signed-out.html"
            let logout = try await browser.get(
                apache.redirectURI + "?logout=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            let endSession = try #require(logout.location, "\(logout.status) \(apache.errorLog)")
            #expect(endSession.hasPrefix(server.issuer + "/logout?") && endSession.contains("id_token_hint="), "\(endSession)")
            let ended = try await browser.get(endSession)
            #expect(ended.status == 303 && ended.location == target, "\(ended.status) \(ended.location ?? "") \(ended.text)")
            #expect(try await browser.get(apache.base + "/protected/").status == 302, "signed out of the module too")

            await server.running.flushAuditLog()
            let log = server.store
            let events = try await log.auditRecords(AuditQuery()).map(\.event)
            #expect(events.contains("sign_in.succeeded"))
            #expect(!events.contains("refresh.reuse_detected"), "\(events)")
            #expect(!events.contains("refresh.refused"), "\(events)")
        }
    }
}
