import Crypto
import Foundation
import Sesame
import SesameProtocol
import SesameServer
import SesameTesting
import Testing

/// Issue #28 §5: a provider's email is validated and normalized exactly as a local one, a login
/// name names one account, and a provider's token is refused for an unknown `crit` header, an
/// empty `sub`, or a second use.
@Suite("Federation: normalized emails, unambiguous login names, crit, sub, replay")
struct FederatedIdentityHardeningTests {
    static let web = "web-client.apps.example"

    @Test("a verified ' Ada@Example.com ' links to the account of ada@example.com; a token used once is refused the second time")
    func normalizedEmailAndReplay() async throws {
        try await SocialProviderTests.withProvider(
            "google", kind: .google, issuer: "https://accounts.google.test", audiences: [Self.web],
            configure: { $0.linkByEmail = true }
        ) { server, google in
            let before = try await server.running.store.users().count
            let token = try await google.sign(google.claims(sub: "g-ada", audience: Self.web, email: "  Ada@Example.com "))
            let first = try await FederationTests.exchange(server, token: token, provider: "google")
            #expect(first.status == 200, "\(first.body)")
            #expect(try await server.running.store.users().count == before, "linked, no second account")
            let ada = try #require(try await server.running.store.user(email: "ada@example.com"))
            let federation = server.running.store
            let identity = try await federation.federatedIdentities(userID: ada.id)
            #expect(identity.map(\.email) == ["ada@example.com"])

            let replay = try await FederationTests.exchange(server, token: token, provider: "google")
            #expect(replay.status == 400 && replay.body["error_code"] as? Int == 2014, "\(replay.body)")
            #expect((replay.body["error_description"] as? String)?.contains("used to sign in already") == true, "\(replay.body)")
            #expect(replay.body["access_token"] == nil)
        }
    }

    @Test("an email that is no address counts as absent; one equal to another account's username makes no account; crit and empty sub are refused")
    func invalidEmailsCritAndSub() async throws {
        try await SocialProviderTests.withProvider(
            "google", kind: .google, issuer: "https://accounts.google.test", audiences: [Self.web]
        ) { server, google in
            let store = server.running.store
            let before = try await store.users().count
            // An email "bob": not an address. It must not create an account whose email is a
            // login name another account (or a later one) could have.
            let bob = try await FederationTests.exchange(
                server, token: try await google.sign(google.claims(sub: "g-bob", audience: Self.web, email: "bob")),
                provider: "google")
            #expect(bob.status == 400 && bob.body["error_code"] as? Int == 2017, "\(bob.body)")

            // A verified address that is an existing account's username: refused, so the
            // login name keeps naming one account.
            let admin = ServerAdmin(store: store, hasher: TestServer.hasher, keyRing: server.running.keyRing)
            _ = try await admin.addUser(
                username: "carol@example.org", email: "carol.real@example.com", password: "pw-\(UUID().uuidString)")
            let carol = try await FederationTests.exchange(
                server,
                token: try await google.sign(google.claims(sub: "g-carol", audience: Self.web, email: "carol@example.org")),
                provider: "google")
            #expect(carol.status == 400 && carol.body["error_code"] as? Int == 2019, "\(carol.body)")
            #expect(try await store.user(login: "carol@example.org")?.email == "carol.real@example.com")

            let critical = try await FederationTests.exchange(
                server,
                token: try await google.sign(
                    google.claims(sub: "g-crit", audience: Self.web, email: "crit@example.com"), critical: ["exp_hint"]),
                provider: "google")
            #expect(critical.status == 400 && critical.body["error_code"] as? Int == 2014, "\(critical.body)")
            #expect((critical.body["error_description"] as? String)?.contains("crit") == true, "\(critical.body)")

            let emptySub = try await FederationTests.exchange(
                server, token: try await google.sign(google.claims(sub: "", audience: Self.web, email: "nosub@example.com")),
                provider: "google")
            #expect(emptySub.status == 400 && emptySub.body["error_code"] as? Int == 2014, "\(emptySub.body)")
            #expect((emptySub.body["error_description"] as? String)?.contains("sub") == true, "\(emptySub.body)")
            #expect(try await store.users().count == before + 1, "only carol's local account was added")

            await server.running.flushAuditLog()
            let log = store
            let rules = Set(try await log.auditRecords(AuditQuery(events: ["federation.refused"])).compactMap(\.reason))
            #expect(rules.isSuperset(of: ["crit", "sub", "account_exists", "required_claim"]), "\(rules)")
        }
    }
}
