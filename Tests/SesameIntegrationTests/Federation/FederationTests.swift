import Crypto
import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameTesting
import SesameServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Federation (docs/federation.md) against the real server over loopback: a second Sesame
/// server as a vendor's independent OpenID provider, and fake Google and Apple providers
/// speaking real HTTP with their real token shapes.
@Suite("Federation: sign in with another provider's ID token")
struct FederationTests {
    static let app = "fed-app"

    /// The downstream app client (allowed the token exchange grant) and an SDK client of it.
    static func prepare(_ server: IntegrationServer) async throws -> ServerAdmin {
        let admin = ServerAdmin(store: server.running.store, hasher: TestServer.hasher, keyRing: server.running.keyRing)
        _ = try await admin.addClient(
            ClientSpec(
                clientID: app, redirectURIs: [IntegrationServer.redirectURI],
                grantTypes: [.authorizationCode, .refreshToken, .tokenExchange], firstParty: true))
        return admin
    }

    /// `upstream` (a second Sesame server) as provider `acme-id` ("Acme ID") of `server` with a
    /// broker client, for the hosted "Continue with …"; returns the upstream's user.
    static func registerBrokeredUpstream(
        _ upstream: IntegrationServer, at server: IntegrationServer
    ) async throws -> IntegrationServer.User {
        let vendorUser = try await upstream.addUser("grace")
        let upstreamAdmin = ServerAdmin(
            store: upstream.running.store, hasher: TestServer.hasher, keyRing: upstream.running.keyRing)
        let (_, secret) = try await upstreamAdmin.addClient(
            ClientSpec(
                clientID: "downstream-broker", confidential: true,
                redirectURIs: [server.issuer.absoluteString + "/federation/callback"]))
        let admin = try await prepare(server)
        var provider = FederationProviderRecord(
            id: "acme-id", kind: .oidc, issuer: upstream.issuer.absoluteString, audiences: ["downstream-broker"],
            jwksURI: upstream.issuer.absoluteString + "/jwks", displayName: "Acme ID")
        provider.brokerClientID = "downstream-broker"
        try await admin.addFederationProvider(provider, brokerClientSecret: secret)
        return vendorUser
    }

    static func sdk(_ server: IntegrationServer) -> SesameClient { server.sdk(clientID: app) }

    /// A raw token exchange with `subject_issuer`; status and body.
    static func exchange(
        _ server: IntegrationServer, token: String, provider: String, nonce: String? = nil,
        tokenType: String = TokenExchange.TokenType.idToken
    ) async throws -> (status: Int, body: [String: Any]) {
        var parameters = [
            ("grant_type", TokenExchange.grantType), ("client_id", app), ("subject_token", token),
            ("subject_token_type", tokenType), ("subject_issuer", provider),
        ]
        if let nonce { parameters.append(("nonce", nonce)) }
        var request = URLRequest(url: server.issuer.appendingPathComponent("token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(FormURLEncoding.encode(parameters).utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    /// An ID token of `username` at `upstream` for its test client, through its login page,
    /// asking (OIDC Core §5.5) for the email and name claims in the ID token.
    static func upstreamIDToken(_ upstream: IntegrationServer, username: String, password: String) async throws -> String {
        let pkce = PKCE()
        var components = URLComponents(url: upstream.issuer.appendingPathComponent("authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            .init(name: "response_type", value: "code"), .init(name: "client_id", value: IntegrationServer.clientID),
            .init(name: "redirect_uri", value: IntegrationServer.redirectURI), .init(name: "scope", value: "openid email profile"),
            .init(name: "state", value: "s"), .init(name: "nonce", value: "n"), .init(name: "code_challenge", value: pkce.challenge),
            .init(name: "code_challenge_method", value: "S256"),
            .init(name: "claims", value: #"{"id_token":{"email":null,"email_verified":null,"name":null}}"#),
        ]
        let redirect = try await HostedLogin(username: username, password: password).signIn(at: components.url!)
        let code = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?.value)
        let (status, body) = try await redeem(code, verifier: pkce.verifier, at: upstream)
        return try #require(body["id_token"] as? String, "\(status) \(body)")
    }

    /// The test client's code redeemed at `server`'s token endpoint (with the PKCE verifier).
    static func redeem(_ code: String, verifier: String, at server: IntegrationServer) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: server.issuer.appendingPathComponent("token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            FormURLEncoding.encode([
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", IntegrationServer.redirectURI),
                ("client_id", IntegrationServer.clientID), ("code_verifier", verifier),
            ]).utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    @Test("the vendor: a second Sesame server is the provider; first use creates the account (profile copied), second use finds it; an unknown provider, another audience and an existing account's email are refused")
    func vendorProvider() async throws {
        let upstream = try await IntegrationServer.start()
        defer { Task { await upstream.stop() } }
        let vendorUser = try await upstream.addUser("grace")
        try await withServer { server in
            let admin = try await Self.prepare(server)
            try await admin.addFederationProvider(
                FederationProviderRecord(
                    id: "acme-id", kind: .oidc, issuer: upstream.issuer.absoluteString, audiences: [IntegrationServer.clientID],
                    jwksURI: upstream.issuer.absoluteString + "/jwks"))
            let token = try await Self.upstreamIDToken(upstream, username: vendorUser.username, password: vendorUser.password)

            let first = Self.sdk(server)
            let account = try await first.federation.signIn(withProviderToken: token, provider: "acme-id")
            #expect(try await first.idTokenClaims().amr == ["fed"])
            let profile = try await first.userInfo()
            #expect(profile.email == vendorUser.email && profile.emailVerified == true)
            // An ID token signs in once: the second use is a new token of the same subject.
            let second = Self.sdk(server)
            await #expect(throws: SesameError.self, "a used ID token is refused") {
                _ = try await second.federation.signIn(withProviderToken: token, provider: "acme-id")
            }
            let again = try await Self.upstreamIDToken(upstream, username: vendorUser.username, password: vendorUser.password)
            #expect(try await second.federation.signIn(withProviderToken: again, provider: upstream.issuer.absoluteString).id == account.id, "found by (provider, sub), named by issuer")
            let federation = server.running.store
            #expect(try await federation.federatedIdentities(userID: account.subject).map(\.providerID) == ["acme-id"])

            let unknown = try await Self.exchange(server, token: token, provider: "nobody")
            #expect(unknown.status == 400 && unknown.body["error_code"] as? Int == 2013, "\(unknown.body)")
            try await admin.addFederationProvider(
                FederationProviderRecord(
                    id: "acme-other", kind: .oidc, issuer: upstream.issuer.absoluteString, audiences: ["another-app"],
                    jwksURI: upstream.issuer.absoluteString + "/jwks"))
            let audience = try await Self.exchange(server, token: token, provider: "acme-other")
            #expect(audience.status == 400 && audience.body["error_code"] as? Int == 2015, "\(audience.body)")

            // ada exists on both servers with the same verified email: not linked unless trusted.
            let adaToken = try await Self.upstreamIDToken(
                upstream, username: IntegrationServer.username, password: IntegrationServer.password)
            let refused = try await Self.exchange(server, token: adaToken, provider: "acme-id")
            #expect(refused.status == 400 && refused.body["error_code"] as? Int == 2019, "\(refused.body)")
            #expect(refused.body["error_user_msg"] as? String != nil)
            var trusted = try #require(try await federation.federationProvider(id: "acme-id"))
            trusted.linkByEmail = true
            try await admin.addFederationProvider(trusted)
            let linked = try await Self.sdk(server).federation.signIn(withProviderToken: adaToken, provider: "acme-id")
            let localAda = try #require(try await server.running.store.user(login: IntegrationServer.username))
            #expect(linked.subject == localAda.id, "linked to the existing verified account")
        }
    }
}

/// The hosted "Continue with …" sign-in, driven over HTTP: the downstream login page's link,
/// the upstream Sesame server's login page, and back to the original client with a code.
@Suite("Federation: Continue with … on the hosted login page")
struct FederationBrokerTests {
    @Test("the login page offers the provider; the link goes to the upstream server, whose sign-in comes back and ends with a code for the original client; a callback without the cookie is refused")
    func continueWith() async throws {
        try await withServer { server in
            let upstream = try await IntegrationServer.start()
            defer { Task { await upstream.stop() } }
            let vendorUser = try await FederationTests.registerBrokeredUpstream(upstream, at: server)

            let http = URLSessionTransport()
            let pkce = PKCE()
            var authorize = URLComponents(url: server.issuer.appendingPathComponent("authorize"), resolvingAgainstBaseURL: false)!
            authorize.queryItems = [
                .init(name: "response_type", value: "code"), .init(name: "client_id", value: IntegrationServer.clientID),
                .init(name: "redirect_uri", value: IntegrationServer.redirectURI), .init(name: "scope", value: "openid email"),
                .init(name: "state", value: "original-state"), .init(name: "code_challenge", value: pkce.challenge),
                .init(name: "code_challenge_method", value: "S256"),
            ]
            let (page, shown) = try await http.send(URLRequest(url: authorize.url!))
            let html = String(decoding: page, as: UTF8.self)
            #expect(html.contains("Continue with Acme ID"))
            // The browser's pre-session cookie: the held request is bound to it (issue #44).
            let preSession = try #require(
                shown.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first.map(String.init))
            let hrefStart = try #require(html.range(of: "href=\"/federation/start?"))
            let hrefEnd = try #require(html[hrefStart.upperBound...].firstIndex(of: "\""))
            let href = String(html[html.index(hrefStart.lowerBound, offsetBy: 6)..<hrefEnd]).replacingOccurrences(of: "&amp;", with: "&")

            #expect(href.contains("authorization_ref="), "the link names the held request, not its parameters: \(href)")
            #expect(!href.contains("original-state"))
            var start = URLRequest(url: URL(string: server.issuer.absoluteString + href)!)
            start.setValue(preSession, forHTTPHeaderField: "Cookie")
            let (_, started) = try await http.send(start)
            #expect(started.statusCode == 303)
            let upstreamURL = try #require(started.value(forHTTPHeaderField: "Location").flatMap(URL.init(string:)))
            #expect(upstreamURL.absoluteString.hasPrefix(upstream.issuer.absoluteString + "/authorize"))
            let cookie = try #require(started.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first.map(String.init))
            #expect(cookie.hasPrefix("sesame_federation="))

            let callback = try await HostedLogin(username: vendorUser.username, password: vendorUser.password).signIn(at: upstreamURL)
            #expect(callback.absoluteString.hasPrefix(server.issuer.absoluteString + "/federation/callback"))
            let (_, refused) = try await http.send(URLRequest(url: callback))
            #expect(refused.statusCode == 400, "no cookie, no sign-in")
            var back = URLRequest(url: callback)
            back.setValue(cookie, forHTTPHeaderField: "Cookie")
            let (finishedBody, finished) = try await http.send(back)
            // A page that goes on at once (the provider's form CSP may not allow another redirect).
            let finishedPage = String(decoding: finishedBody, as: UTF8.self)
            #expect(finished.statusCode == 200 && finished.value(forHTTPHeaderField: "Location") == nil)
            let refresh = try #require(
                finishedPage.range(of: #"<meta http-equiv="refresh" content="0;url="#), "\(finishedPage.prefix(2000))")
            let target = finishedPage[refresh.upperBound...].prefix { $0 != "\"" }.replacingOccurrences(of: "&amp;", with: "&")
            let final = try #require(URLComponents(string: target), "\(target)")
            #expect(final.string?.hasPrefix(IntegrationServer.redirectURI) == true, "\(final)")
            #expect(final.queryItems?.first { $0.name == "state" }?.value == "original-state")
            let code = try #require(final.queryItems?.first { $0.name == "code" }?.value)

            let (status, tokens) = try await FederationTests.redeem(code, verifier: pkce.verifier, at: server)
            #expect(status == 200, "\(tokens)")
            let idToken = try #require(tokens["id_token"] as? String)
            let claims = try jwtPayload(idToken)
            #expect(claims["amr"] as? [String] == ["fed"])
            let user = try #require(try await server.running.store.user(login: vendorUser.email))
            let subject = claims["sub"] as? String
            #expect(subject == user.id, "the account was made from the upstream identity")
        }
    }
}
