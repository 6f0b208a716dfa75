import Crypto
import Foundation
import Sesame
import SesameProtocol
import SesameServer
import Testing

/// Google- and Apple-shaped tokens from fake providers over real HTTP: every validation rule
/// broken once (each its own error, none creating an account), the JWKS cache and its single
/// refetch on an unknown `kid`, Apple's hashed nonce and string `email_verified`, and the
/// account-takeover rules for unverified emails.
@Suite("Federation: Google and Apple shapes, forged tokens, takeover")
struct SocialProviderTests {
    static let web = "web-client.apps.example"
    static let android = "android-client.apps.example"

    /// A fake provider registered on a fresh server as `id`, with `configure` applied to the
    /// registration; `body` gets both.
    static func withProvider(
        _ id: String, kind: Federation.Kind, issuer: String, audiences: [String],
        configure: (inout FederationProviderRecord) -> Void = { _ in },
        _ body: (IntegrationServer, FakeProvider) async throws -> Void
    ) async throws {
        let provider = try await FakeProvider.start(issuer: issuer)
        defer { provider.stop() }
        try await withServer { server in
            let admin = try await FederationTests.prepare(server)
            var record = FederationProviderRecord(
                id: id, kind: kind, issuer: provider.issuer, audiences: audiences, jwksURI: provider.jwksURI)
            configure(&record)
            try await admin.addFederationProvider(record)
            try await body(server, provider)
        }
    }

    @Test("Google: azp with several audiences; one forged token per rule, each refused with its own code and rule; no account made; JWKS cached and refetched once for a new kid")
    func google() async throws {
        try await Self.withProvider(
            "google", kind: .google, issuer: "https://accounts.google.test", audiences: [Self.web, Self.android]
        ) { server, google in
            var good = google.claims(sub: "g-1", audience: Self.web, email: "gina@gmail.test")
            good["aud"] = .strings([Self.web, "other.apps.example"])
            good["azp"] = .string(Self.android)
            good["name"] = .string("Gina G.")
            let accepted = try await FederationTests.exchange(server, token: try await google.sign(good), provider: "google")
            #expect(accepted.status == 200, "\(accepted.body)")

            func claims(_ change: (inout [String: FakeValue]) -> Void) -> [String: FakeValue] {
                var claims = google.claims(sub: "g-2", audience: Self.web, email: "forged@gmail.test")
                change(&claims)
                return claims
            }
            let now = Int(Date().timeIntervalSince1970)
            let cases: [(String, String, Int, String)] = [
                ("alg none", try ForgedJWS.unsigned(claims { _ in }), 2014, "alg"),
                ("HS256 keyed with the public JWKS", try ForgedJWS.hmac(claims { _ in }, secret: google.publicJWKS), 2014, "alg"),
                ("another key", try await google.sign(claims { _ in }, key: P256.Signing.PrivateKey()), 2014, "signature"),
                ("another issuer", try await google.sign(claims { $0["iss"] = .string("https://evil.test") }), 2014, "iss"),
                ("another audience", try await google.sign(claims { $0["aud"] = .string("someone-else") }), 2015, "aud"),
                ("azp of another app", try await google.sign(claims {
                    $0["aud"] = .strings([Self.web, "x"]); $0["azp"] = .string("evil-app")
                }), 2015, "aud"),
                ("expired", try await google.sign(claims { $0["exp"] = .int(now - 600) }), 2016, "exp"),
                ("issued in the future", try await google.sign(claims { $0["iat"] = .int(now + 600) }), 2014, "iat"),
                ("no email", try await google.sign(claims { $0["email"] = nil; $0["email_verified"] = nil }), 2017, "required_claim"),
                ("unverified email", try await google.sign(claims { $0["email_verified"] = .bool(false) }), 2018, "email_verified"),
                ("not a JWS", "not-a-token", 2014, "jws"),
            ]
            for (name, token, code, _) in cases {
                let answer = try await FederationTests.exchange(server, token: token, provider: "google")
                #expect(answer.status == 400 && answer.body["error_code"] as? Int == code, "\(name): \(answer.body)")
                #expect(answer.body["access_token"] == nil, "\(name)")
            }
            let nonce = try await FederationTests.exchange(
                server, token: try await google.sign(claims { $0["nonce"] = .string("other") }), provider: "google",
                nonce: "mine")
            #expect(nonce.body["error_code"] as? Int == 2014, "nonce: \(nonce.body)")
            #expect(try await server.running.store.user(login: "forged@gmail.test") == nil, "no forged token made an account")

            await server.running.flushAuditLog()
            let log = server.running.store
            let rules = Set(try await log.auditRecords(AuditQuery(events: ["federation.refused"])).compactMap(\.reason))
            #expect(rules.isSuperset(of: Set(cases.map(\.3)).union(["nonce"])), "\(rules)")

            #expect(google.fetches == 1, "the JWKS is cached for its max-age")
            google.rotate()
            let rotated = try await FederationTests.exchange(
                server, token: try await google.sign(google.claims(sub: "g-1", audience: Self.web, email: "gina@gmail.test")),
                provider: "google")
            #expect(rotated.status == 200, "a new kid causes one refetch: \(rotated.body)")
            #expect(google.fetches == 2)
            google.rotate()
            let again = try await FederationTests.exchange(
                server, token: try await google.sign(google.claims(sub: "g-1", audience: Self.web, email: "gina@gmail.test")),
                provider: "google")
            #expect(again.status == 400 && google.fetches == 2, "at most one refetch a minute")
        }
    }

    @Test("Apple: the token's nonce is SHA-256 of the app's, email_verified a string; an unverified email never links to an existing account, and creates one only when allowed and free")
    func apple() async throws {
        try await Self.withProvider(
            "apple", kind: .apple, issuer: "https://appleid.apple.test", audiences: ["com.example.app"],
            configure: { $0.allowUnverifiedEmail = true; $0.linkByEmail = true }
        ) { server, apple in
            let raw = "raw-nonce-123"
            var claims = apple.claims(sub: "a-1", audience: "com.example.app", email: "abe@privaterelay.test", emailVerified: .string("true"))
            claims["nonce"] = .string(SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined())
            let client = server.sdk(clientID: FederationTests.app)
            let account = try await client.federation.signIn(withProviderToken: try await apple.sign(claims), provider: "apple", nonce: raw)
            #expect(try await client.userInfo().emailVerified == true)

            claims["nonce"] = .string(raw)  // not hashed: refused
            let plain = try await FederationTests.exchange(server, token: try await apple.sign(claims), provider: "apple", nonce: raw)
            #expect(plain.body["error_code"] as? Int == 2014, "\(plain.body)")

            // An unverified email equal to an existing account's: no link, no sign-in.
            let takeover = apple.claims(sub: "a-2", audience: "com.example.app", email: "ada@example.com", emailVerified: .string("false"))
            let refused = try await FederationTests.exchange(server, token: try await apple.sign(takeover), provider: "apple")
            #expect(refused.status == 400 && refused.body["error_code"] as? Int == 2018, "\(refused.body)")
            let federation = server.running.store
            #expect(try await federation.federatedIdentity(providerID: "apple", subject: "a-2") == nil)
            let ada = try #require(try await server.running.store.user(login: "ada"))
            #expect(try await federation.federatedIdentities(userID: ada.id).isEmpty)

            // Unverified and free: allowed here, the account's email stays unverified.
            let fresh = apple.claims(sub: "a-3", audience: "com.example.app", email: "new@privaterelay.test", emailVerified: .bool(false))
            let created = try await FederationTests.exchange(server, token: try await apple.sign(fresh), provider: "apple")
            #expect(created.status == 200, "\(created.body)")
            #expect(try await server.running.store.user(login: "new@privaterelay.test")?.emailVerified == false)
            #expect(account.subject != ada.id)
        }
    }

    @Test("linked identities through the account APIs: listed; the only way to sign in cannot be unlinked; with a password it can")
    func identitiesAPI() async throws {
        try await Self.withProvider(
            "google", kind: .google, issuer: "https://accounts.google.test", audiences: [Self.web],
            configure: { $0.linkByEmail = true }
        ) { server, google in
            let newcomer = server.sdk(clientID: FederationTests.app)
            _ = try await newcomer.federation.signIn(
                withProviderToken: try await google.sign(google.claims(sub: "g-9", audience: Self.web, email: "nia@gmail.test")),
                provider: "google")
            let listed = try await newcomer.account.linkedIdentities()
            #expect(listed.map(\.provider) == ["google"] && listed.first?.subject == "g-9" && listed.first?.email == "nia@gmail.test")
            do throws(SesameError) {
                try await newcomer.account.unlinkIdentity(provider: "google", subject: "g-9")
                Issue.record("the only way to sign in was unlinked")
            } catch {
                #expect(error.apiError?.code == .lastSignInMethod, "\(error)")
            }

            // ada has a password: her link can go.
            let ada = server.sdk(clientID: FederationTests.app)
            _ = try await ada.federation.signIn(
                withProviderToken: try await google.sign(google.claims(sub: "g-ada", audience: Self.web, email: "ada@example.com")),
                provider: "google")
            #expect(try await ada.account.linkedIdentities().count == 1)
            try await ada.account.unlinkIdentity(provider: "google", subject: "g-ada")
            #expect(try await ada.account.linkedIdentities().isEmpty)
            do throws(SesameError) {
                try await ada.account.unlinkIdentity(provider: "google", subject: "g-ada")
                Issue.record("unlinked twice")
            } catch {
                #expect(error.apiError?.code == .notFound, "\(error)")
            }
        }
    }

    @Test("five first uses of one subject at once make one account and one link, and every one signs in; the same token five times at once signs in once")
    func concurrentFirstUse() async throws {
        try await Self.withProvider("google", kind: .google, issuer: "https://accounts.google.test", audiences: [Self.web]) {
            server, google in
            var tokens: [String] = []
            for index in 0..<5 {
                var claims = google.claims(sub: "g-race", audience: Self.web, email: "race@gmail.test")
                claims["jti"] = .string("token-\(index)")
                tokens.append(try await google.sign(claims))
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for token in tokens { group.addTask { try await FederationTests.exchange(server, token: token, provider: "google").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == [200, 200, 200, 200, 200], "\(statuses)")
            let copied = try await google.sign(google.claims(sub: "g-race", audience: Self.web, email: "race@gmail.test"))
            let replays = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<5 { group.addTask { try await FederationTests.exchange(server, token: copied, provider: "google").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(replays.sorted() == [200, 400, 400, 400, 400], "\(replays)")
            let user = try #require(try await server.running.store.user(login: "race@gmail.test"))
            let federation = server.running.store
            #expect(try await federation.federatedIdentities(userID: user.id).count == 1)
            #expect(try await server.running.store.users().filter { $0.email == "race@gmail.test" }.count == 1)
        }
    }

    @Test("Facebook: access tokens checked at the inspection endpoint with the app's credentials: valid ones sign in; another app's, an expired, an invalid or a swapped one is refused with its own code")
    func facebook() async throws {
        let facebook = try await FakeProvider.start(issuer: "https://www.facebook.com")
        defer { facebook.stop() }
        facebook.acceptApp(id: "1234", secret: "app-secret")
        try await withServer { server in
            let admin = try await FederationTests.prepare(server)
            var record = FederationProviderRecord(id: "facebook", kind: .facebook, issuer: "", audiences: ["1234"])
            record.brokerClientID = "1234"
            record.inspectionEndpoint = "http://127.0.0.1:\(facebook.port)/debug_token"
            record.profileEndpoint = "http://127.0.0.1:\(facebook.port)/me"
            try await admin.addFederationProvider(record, brokerClientSecret: "app-secret")

            func exchange(_ token: String) async throws -> (status: Int, body: [String: Any]) {
                try await FederationTests.exchange(server, token: token, provider: "facebook", tokenType: TokenExchange.TokenType.accessToken)
            }
            let good = facebook.facebookToken(.init(appID: "1234", userID: "fb-1", email: "fay@facebook.test"))
            let signedIn = try await exchange(good)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            let user = try #require(try await server.running.store.user(login: "fay@facebook.test"))
            #expect(user.emailVerified && user.claims.name == "Fay Book")
            #expect(try await exchange(good).status == 200, "the second use finds the account")

            let cases: [(String, String, Int)] = [
                ("another app", facebook.facebookToken(.init(appID: "9999", userID: "fb-2", email: "x@facebook.test")), 2015),
                ("expired", facebook.facebookToken(.init(appID: "1234", userID: "fb-3", expiresAt: 1_000, email: "y@facebook.test")), 2016),
                ("invalid", facebook.facebookToken(.init(appID: "1234", userID: "fb-4", valid: false, email: "z@facebook.test")), 2014),
                ("unknown", "EAABnotissued", 2014),
                ("swapped profile", facebook.facebookToken(.init(appID: "1234", userID: "fb-5", email: "w@facebook.test", profileID: "fb-1")), 2014),
                ("no email", facebook.facebookToken(.init(appID: "1234", userID: "fb-6")), 2017),
            ]
            for (name, token, code) in cases {
                let answer = try await exchange(token)
                #expect(answer.status == 400 && answer.body["error_code"] as? Int == code, "\(name): \(answer.body)")
            }
            let asIDToken = try await FederationTests.exchange(server, token: good, provider: "facebook")
            #expect(asIDToken.body["error_code"] as? Int == 2014, "a Facebook token is an access token: \(asIDToken.body)")
        }
    }

    /// Plays an embedded Sign in with Apple SDK: signs a token whose nonce is the hash of the one
    /// Sesame hands it (``AppleNonce``), as Apple does.
    struct AppleDouble: FederationProvider {
        let apple: FakeProvider
        var name: String { "apple" }

        func signIn(nonce: String) async throws(SesameError) -> FederationCredential {
            var claims = apple.claims(sub: "a-double", audience: "com.example.app", email: "dbl@privaterelay.test")
            claims["nonce"] = .string(AppleNonce.hashed(nonce))
            do {
                return FederationCredential(idToken: try await apple.sign(claims))
            } catch {
                throw .technical(.platform("\(error)"))
            }
        }

        func silentRefresh(nonce: String) async -> FederationCredential? { nil }
        func signOut() async {}
    }

    @Test("signIn(with: FederationProvider) passes a fresh nonce through the provider SDK to the server's check; federation_providers limits the names an app may use")
    func providerProtocol() async throws {
        try await Self.withProvider("apple", kind: .apple, issuer: "https://appleid.apple.test", audiences: ["com.example.app"]) {
            server, apple in
            let client = server.sdk(clientID: FederationTests.app)
            let account = try await client.federation.signIn(with: AppleDouble(apple: apple))
            #expect(try await client.idTokenClaims().amr == ["fed"])
            let made = try #require(try await server.running.store.user(login: "dbl@privaterelay.test"))
            #expect(account.subject == made.id)

            var configuration = server.configuration()
            configuration.clientID = FederationTests.app
            configuration.federationProviders = ["google"]
            let limited = SesameClient(configuration: configuration, store: InMemoryCredentialStore())
            #expect(limited.configuredProviders == ["google"])
            do throws(SesameError) {
                _ = try await limited.federation.signIn(with: AppleDouble(apple: apple))
                Issue.record("a provider outside federation_providers was used")
            } catch {
                guard case .invalidConfiguration(let detail) = error.reason else {
                    Issue.record("expected invalidConfiguration, got \(error)")
                    return
                }
                #expect(detail.contains("federation_providers"))
            }
            let decoded = try JSONDecoder().decode(
                SesameConfiguration.self,
                from: Data(#"{"issuer":"https://id.example.com","client_id":"a","redirect_uri":"com.example.a:/cb","federation_providers":["apple","acme-id"]}"#.utf8))
            #expect(decoded.federationProviders == ["apple", "acme-id"])
        }
    }
}
