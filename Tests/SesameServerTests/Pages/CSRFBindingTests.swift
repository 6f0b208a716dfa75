import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing

@testable import SesameServer

/// Issue #28 §6: the hosted forms accept only CSRF tokens the server minted for the browser's
/// pre-session cookie (not any value the cookie and field agree on), the cookies carry the
/// `__Host-` prefix with an https issuer, and a proof-of-work solution is good only where it
/// was issued (an API challenge's solution is refused by the hosted form).
@Suite("CSRF tokens bound to the pre-session; challenges bound to where they were issued")
struct CSRFBindingTests {
    @Test("cookie and field agreeing on a value the server did not mint is refused; so is another browser's token")
    func onlyMintedTokens() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let page = try await flow.authorize(.init())
            var fields = HTMLForm(html: page.text).fields
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password

            // The classic double-submit forgery: plant a cookie, send the same value.
            let planted = SecureRandom.token()
            browser.setCookie("sesame_csrf", planted)
            let forged = try await browser.postForm("/login", fields.merging(["csrf_token": planted]) { $1 })
            #expect(forged.status == 403, "\(forged.status)")
            #expect(forged.location == nil)

            // A token minted for another browser's pre-session, with this browser's cookie.
            let other = server.client()
            let otherPage = try await OAuthFlow(browser: other).authorize(.init())
            let otherToken = try #require(HTMLForm(html: otherPage.text).fields["csrf_token"])
            browser.setCookie("sesame_csrf", nil)
            let mine = try await flow.authorize(.init())
            var mineFields = HTMLForm(html: mine.text).fields
            mineFields["username"] = Fixtures.username
            mineFields["password"] = Fixtures.password
            let crossed = try await browser.postForm("/login", mineFields.merging(["csrf_token": otherToken]) { $1 })
            #expect(crossed.status == 403)

            // The page's own token signs in.
            let signedIn = try await browser.postForm("/login", mineFields)
            #expect(signedIn.status == 303, "\(signedIn.text)")
        }
    }

    @Test("with an https issuer both cookies are __Host- prefixed, Secure, Path=/, without Domain, and the sign-in works")
    func hostPrefix() async throws {
        try await withTestServer(configure: { $0.issuer = URL(string: "https://id.example.test") }) { server in
            let browser = server.portClient()
            let flow = OAuthFlow(browser: browser)
            let page = try await flow.authorize(.init())
            let csrf = try #require(page.setCookies.first { $0.hasPrefix("__Host-sesame_csrf=") }, "\(page.setCookies)")
            for attribute in ["Secure", "Path=/", "HttpOnly", "SameSite=Strict"] { #expect(csrf.contains(attribute), "\(attribute)") }
            #expect(!csrf.contains("Domain"))
            #expect(page.setCookies.allSatisfy { !$0.hasPrefix("sesame_csrf=") })

            let login = try await flow.submitLogin(page: page)
            #expect(login.status == 303, "\(login.text)")
            let session = try #require(login.setCookies.first { $0.hasPrefix("__Host-sesame_session=") }, "\(login.setCookies)")
            #expect(session.contains("Secure") && session.contains("Path=/") && !session.contains("Domain"))

            // A cookie without the prefix (what a sibling subdomain could set) is not read.
            let fresh = server.portClient()
            let freshPage = try await OAuthFlow(browser: fresh).authorize(.init())
            let token = try #require(fresh.cookie("__Host-sesame_csrf"))
            fresh.setCookie("__Host-sesame_csrf", nil)
            fresh.setCookie("sesame_csrf", token)
            var fields = HTMLForm(html: freshPage.text).fields
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password
            #expect(try await fresh.postForm("/login", fields).status == 403)
        }
    }

    @Test("a solution of /authorize-challenge's challenge is refused by the hosted login form, even for the same subject")
    func challengeSurface() async throws {
        try await withTestServer(configure: {
            $0.challenges = ChallengePolicy(modes: [.signIn: .always], baseDifficulty: 4, maximumDifficulty: 8)
        }) { server in
            server.clock.freeze()
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let page = try await flow.authorize(.init())
            var fields = HTMLForm(html: page.text).fields
            let csrf = try #require(fields["csrf_token"])
            // The API's challenge for a login name equal to this form's CSRF token.
            let api = try await ChallengeFlow(server).start(username: csrf)
            let challenge = try ChallengeTests.challenge(of: api)
            let solution = try ChallengeTests.solve(challenge)
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password
            fields["challenge_token"] = solution.token
            fields["challenge_nonce"] = String(solution.nonce)
            let refused = try await browser.postForm("/login", fields)
            #expect(refused.location == nil, "the API's solution let the hosted form through")
            #expect(refused.status == 429 || refused.status == 400, "\(refused.status)")

            await server.running.flushAuditLog()
            let log = server.store
            let reasons = try await log.auditRecords(AuditQuery(events: ["challenge.refused"])).compactMap(\.reason)
            #expect(reasons.contains("other_request"), "\(reasons)")
        }
    }
}
