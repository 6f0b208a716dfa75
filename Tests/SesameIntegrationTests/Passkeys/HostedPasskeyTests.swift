import Foundation
import Sesame
import SesameProtocol
import SesameServer
import SesameTesting
import Testing

/// The hosted login page's passkey over HTTP (docs/passkeys.md): its options need the page's
/// double-submit CSRF pair, and the challenge is bound to that page, so an answer made for one
/// browser's page is refused on another's.
@Suite("Passkeys on the hosted login page: binding")
struct HostedPasskeyTests {
    @Test("options need the CSRF pair; an answer made for one page is refused on another; made for this page it ends at the app with a code")
    func pageBinding() async throws {
        try await withServer { server in
            let fixture = try await PasskeyFixture.start(server)
            try await fixture.registerHonestly()
            var query = URLComponents(url: server.issuer.appendingPathComponent("authorize"), resolvingAgainstBaseURL: false)!
            query.queryItems = [
                .init(name: "response_type", value: "code"), .init(name: "client_id", value: IntegrationServer.clientID),
                .init(name: "redirect_uri", value: IntegrationServer.redirectURI), .init(name: "scope", value: "openid"),
                .init(name: "code_challenge", value: PKCE().challenge), .init(name: "code_challenge_method", value: "S256"),
                .init(name: "state", value: "s1"),
            ]
            let optionsURL = server.issuer.appendingPathComponent("login/passkey")
            let loginURL = server.issuer.appendingPathComponent("login")
            let first = ScriptedBrowser()
            let second = ScriptedBrowser()
            let firstForm = HTMLForm(html: try await first.get(query.url!).body)
            let secondForm = HTMLForm(html: try await second.get(query.url!).body)
            #expect(firstForm.fields["csrf_token"] != secondForm.fields["csrf_token"])

            let forged = try await first.post(optionsURL, ["csrf_token": "not-the-cookie"])
            #expect(forged.status == 403)
            func options(_ browser: ScriptedBrowser, _ form: HTMLForm) async throws -> CredentialRequestOptionsJSON {
                let page = try await browser.post(optionsURL, ["csrf_token": form.fields["csrf_token"] ?? ""])
                try #require(page.status == 200, "\(page.body)")
                return try JSONDecoder().decode(CredentialRequestOptionsJSON.self, from: Data(page.body.utf8))
            }
            func answer(_ options: CredentialRequestOptionsJSON, signCount: UInt32) throws -> String {
                let assertion = try fixture.factory.assertion(
                    challenge: options.challenge, userHandle: fixture.userHandle, fixture.parameters { $0.signCount = signCount })
                return String(decoding: try JSONEncoder().encode(assertion), as: UTF8.self)
            }

            let made = try await options(first, firstForm)
            #expect(made.allowCredentials.isEmpty && made.userVerification == "required")
            var stolen = secondForm.fields
            stolen["passkey_assertion"] = try answer(made, signCount: 1)
            let refused = try await second.post(loginURL, stolen)
            #expect(refused.status == 400)
            #expect(refused.body.contains("This passkey request has expired"), "\(refused.body.prefix(400))")

            var own = firstForm.fields
            own["passkey_assertion"] = try answer(try await options(first, firstForm), signCount: 2)
            let signedIn = try await first.post(loginURL, own)
            #expect(signedIn.status == 303)
            let location = try #require(signedIn.location.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) })
            #expect(location.queryItems?.contains { $0.name == "code" } == true && location.queryItems?.contains { $0.name == "state" && $0.value == "s1" } == true)
        }
    }
}
