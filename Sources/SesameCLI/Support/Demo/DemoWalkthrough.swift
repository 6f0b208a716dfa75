import Foundation
import Logging
import ScriptedBrowser
import Sesame
import SesameProtocol
import SesameServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The steps of `sesame demo` after the server is up: register, sign in through the hosted
/// login page, inspect the ID token, call userinfo, refresh, add a second account and switch,
/// log out with revocation and prove the tokens are dead, then sign in natively with password
/// and an emailed code (``nativeSignIn(client:account:user:)``), unlock with a PIN, share a
/// sign-in across a vendor's apps and get an app-level token (``singleSignOn(user:)``), sign in
/// with a passkey, and sign a TV in with a code approved on the phone (``deviceSignIn(user:)``).
struct DemoWalkthrough {
    static let stepCount = 15
    static let clientID = "sesame-demo"
    static let resourceServerID = "demo-resource-server"
    static let redirectURI = URL(string: "http://127.0.0.1/callback")!

    let server: RunningServer
    let steps: DemoSteps

    /// Step 1: the server, on port 0 with a quick scrypt cost (demo only).
    static func startServer(dataDirectory: URL, steps: DemoSteps) async throws -> RunningServer {
        let configuration = ServerConfiguration(
            dataDirectory: DataDirectory(url: dataDirectory), host: "127.0.0.1", port: 0,
            passwordHasher: demoHasher)
        let server = try await IdentityServer.start(configuration, logger: quietLogger)
        steps.detail("Issuer: \(server.issuer.absoluteString)")
        steps.detail("Data directory (temporary): \(dataDirectory.path)")
        return server
    }

    static let demoHasher = ScryptPasswordHasher(logN: 12)
    static let quietLogger = CLILogging.logger(label: "sesame.demo", level: .critical)

    func run() async throws {
        let people = try await steps.run("Registering a public client and two users") {
            try await register()
        }
        let api = try await DemoExampleAPI.start(issuer: server.issuer)
        do {
            try await run(people: people, api: api)
        } catch {
            await api.server.shutdown()
            throw error
        }
        await api.server.shutdown()
    }

    private func run(people: People, api: DemoExampleAPI) async throws {
        let client = SesameClient(
            configuration: SesameConfiguration(
                issuer: server.issuer, clientID: Self.clientID, redirectURI: Self.redirectURI,
                allowedOrigins: [api.server.baseURL]),
            store: InMemoryCredentialStore(), transport: URLSessionTransport(),
            clock: SystemClock(), logger: Self.quietLogger)

        let alice = try await steps.run("Signing in \(people.alice.username) in the browser (authorization code + PKCE S256)") {
            try await signIn(people.alice, client: client, options: SignInOptions())
        }
        try await steps.run("Reading the validated ID token (OpenID Connect Core §3.1.3.7)") {
            try await showIDToken(client: client, account: alice, user: people.alice)
        }
        try await steps.run("Calling userinfo with the access token (Authorization: Bearer)") {
            try await callUserInfo(client: client, account: alice, user: people.alice)
        }
        try await steps.run("Calling the app's own API, which checks the access token itself (RFC 9068)") {
            try await api.call(client: client, account: alice, subject: people.alice.sub, steps: steps)
        }
        try await steps.run("Refreshing the access token (rotating the refresh token)") {
            try await refresh(client: client, account: alice)
        }
        let bob = try await steps.run("Signing in a second account (\(people.bob.username)) and switching back") {
            try await secondAccount(client: client, alice: alice, bob: people.bob, people: people)
        }
        try await steps.run("Logging \(people.alice.username) out with revocation (RFC 7009)") {
            try await logout(client: client, alice: alice, bob: bob, people: people)
        }
        try await steps.run("Signing \(people.bob.username) in natively: password, then an emailed code (MFA)") {
            try await nativeSignIn(client: client, account: bob, user: people.bob)
        }
        try await steps.run("Protecting \(people.alice.username)'s device with a PIN: register, a wrong PIN, unlock") {
            try await pinUnlock(user: people.alice)
        }
        try await steps.run("Single sign-on across a vendor's apps: join, logout here, logout everywhere") {
            try await singleSignOn(user: people.alice)
        }
        try await steps.run("An app-level token with the app's own key (private_key_jwt)") {
            try await appLevelToken()
        }
        try await steps.run("A TV signs in with a code the person approves on their phone (RFC 8628)") {
            try await deviceSignIn(user: people.alice)
        }
        try await steps.run("A passkey: registered after a password sign-in, then signing in with it alone") {
            try await passkey(user: people.alice)
        }
    }

    struct DemoUser: Sendable {
        var username: String
        var email: String
        var name: String
        var password: String
        var sub: String
    }

    struct People: Sendable {
        var alice: DemoUser
        var bob: DemoUser
        var resourceSecret: String
    }

    // MARK: Step 2

    private func register() async throws -> People {
        let admin = ServerAdmin(store: server.store, hasher: Self.demoHasher, keyRing: server.keyRing)
        let (client, _) = try await admin.addClient(
            ClientSpec(
                clientID: Self.clientID, name: "Sesame demo app",
                redirectURIs: [Self.redirectURI.absoluteString], firstParty: true))
        steps.ok(
            "client \(client.clientID): public, first-party (native sign-in, account APIs), PKCE, redirect \(Self.redirectURI.absoluteString) (any loopback port)")
        var resourceSpec = ClientSpec(
            clientID: Self.resourceServerID, name: "Demo API", confidential: true, grantTypes: [.clientCredentials],
            scopes: ["openid"])
        resourceSpec.introspectsAnyToken = true  // a resource server: it introspects the app's tokens
        let (resource, secret) = try await admin.addClient(resourceSpec)
        guard let secret else { throw CLIError("the confidential demo client got no secret") }
        steps.ok("client \(resource.clientID): confidential resource server (introspects every token), secret not shown")
        var users: [DemoUser] = []
        for (username, name) in [("alice", "Alice Example"), ("bob", "Bob Example")] {
            let password = SecureRandom.token(byteCount: 12)
            var claims = StandardClaims(sub: "")
            claims.name = name
            let record = try await admin.addUser(
                username: username, email: "\(username)@example.com", password: password,
                claims: claims, emailVerified: true)
            steps.ok("user \(record.username) <\(record.email)>, sub \(record.id), random password (not shown)")
            users.append(
                DemoUser(
                    username: record.username, email: record.email, name: name,
                    password: password, sub: record.id))
        }
        return People(alice: users[0], bob: users[1], resourceSecret: secret)
    }

    // MARK: Steps 3 and 7

    private func signIn(
        _ user: DemoUser, client: SesameClient, options: SignInOptions
    ) async throws -> Account {
        let driver = HostedLogin(
            username: user.username, password: user.password,
            say: { DemoSteps.detail($0) })
        let agent = HeadlessBrowserAgent { url in try await driver.signIn(at: url) }
        let account = try await client.signIn(with: agent, options: options)
        try demoExpect(account.subject == user.sub, "the account's sub \(account.subject) is \(user.username)'s \(user.sub)")
        let token = try await client.validAccessToken(for: account.id, forceRefresh: false)
        steps.ok("signed in as \(user.email); access token received (\(token.count) characters, not shown)")
        return account
    }

    // MARK: Step 4

    private func showIDToken(client: SesameClient, account: Account, user: DemoUser) async throws {
        let claims = try await client.idTokenClaims(for: account.id)
        let format = ISO8601DateFormatter()
        steps.detail("iss       \(claims.iss)")
        steps.detail("sub       \(claims.sub)")
        steps.detail("aud       \(claims.aud.joined(separator: " "))")
        steps.detail("auth_time \(claims.authTime.map(format.string(from:)) ?? "-")")
        steps.detail("acr       \(claims.acr ?? "-")")
        steps.detail("amr       \(claims.amr?.joined(separator: " ") ?? "-")")
        steps.detail("exp       \(claims.exp.map(format.string(from:)) ?? "-")")
        try demoExpect(claims.iss == server.issuer.absoluteString, "iss equals the issuer")
        try demoExpect(claims.aud.contains(Self.clientID), "aud contains \(Self.clientID)")
        try demoExpect(claims.sub == user.sub, "sub is \(user.username)'s")
        steps.ok("signature, iss, aud, exp, iat and nonce checked by the SDK")
    }

    // MARK: Step 5

    private func callUserInfo(client: SesameClient, account: Account, user: DemoUser) async throws {
        let metadata = try await client.metadata()
        guard let endpoint = metadata.userinfoEndpoint else {
            throw CLIError("discovery lists no userinfo_endpoint")
        }
        let (body, response) = try await client.data(for: URLRequest(url: endpoint), account: account.id)
        steps.detail("GET \(endpoint.path) → \(response.statusCode)")
        try demoExpect(response.statusCode == 200, "userinfo answers 200")
        let claims = try JSONDecoder().decode(StandardClaims.self, from: body)
        steps.detail("sub \(claims.sub), name \(claims.name ?? "-"), email \(claims.email ?? "-")")
        try demoExpect(claims.sub == user.sub && claims.email == user.email, "userinfo describes \(user.username)")
        let checked = try await client.userInfo(for: account.id)
        try demoExpect(checked.sub == user.sub, "userInfo(for:) has the ID token's sub")
        steps.ok("userinfo sub equals the ID token sub (OIDC Core §5.3.2)")
    }

    // MARK: Step 6

    private func refresh(client: SesameClient, account: Account) async throws {
        let before = try await client.validAccessToken(for: account.id, forceRefresh: false)
        let expiryBefore = AccessTokenInfo.expiry(of: before)
        let after = try await client.validAccessToken(for: account.id, forceRefresh: true)
        let expiryAfter = AccessTokenInfo.expiry(of: after)
        try demoExpect(before != after, "the refreshed access token is a new one")
        let format = ISO8601DateFormatter()
        steps.detail("old access token expires \(expiryBefore.map(format.string(from:)) ?? "-")")
        steps.detail("new access token expires \(expiryAfter.map(format.string(from:)) ?? "-")")
        steps.ok("a different access token (\(after.count) characters); the rotated refresh token is stored")
    }

    // MARK: Step 7

    private func secondAccount(
        client: SesameClient, alice: Account, bob user: DemoUser, people: People
    ) async throws -> Account {
        let bob = try await signIn(
            user, client: client, options: SignInOptions(prompt: ["login"], ephemeral: true))
        let order = await client.accounts().map(\.id)
        steps.detail("accounts (most recent first): \(await labels(client, people))")
        try demoExpect(order.first == bob.id, "\(user.username) is most recently used")
        try await client.switchAccount(to: alice.id)
        let current = await client.currentAccount()
        try demoExpect(current?.id == alice.id, "the current account is alice after the switch")
        let reordered = await client.accounts().map(\.id)
        try demoExpect(reordered.first == alice.id, "alice is first after the switch")
        steps.detail("after switching: \(await labels(client, people))")
        steps.ok("two accounts side by side; current: \(people.alice.email)")
        return bob
    }

    /// The accounts in MRU order, by email (the ID token need not carry one; we know ours).
    private func labels(_ client: SesameClient, _ people: People) async -> String {
        await client.accounts().map { account in
            account.email ?? [people.alice, people.bob].first { $0.sub == account.subject }?.email
                ?? account.subject
        }.joined(separator: ", ")
    }

    // MARK: Step 8

    private func logout(
        client: SesameClient, alice: Account, bob: Account, people: People
    ) async throws {
        let resourceSecret = people.resourceSecret
        let oldToken = try await client.validAccessToken(for: alice.id, forceRefresh: false)
        try demoExpect(
            try await introspect(oldToken, secret: resourceSecret, client: client),
            "the access token is active before logout")
        steps.ok("before: introspection says the access token is active")
        let result = try await client.logout(alice.id, revoke: true)
        steps.detail(
            result.revoked
                ? "logout: \(people.alice.email) forgotten locally; refresh and access tokens revoked"
                : "logout: \(people.alice.email) forgotten locally; revocation failed")
        try demoExpect(result.revoked, "the provider confirmed the revocation")
        do {
            _ = try await client.validAccessToken(for: alice.id, forceRefresh: false)
            throw CLIError("expectation failed: alice still has a session after logout")
        } catch let error as SesameError where error.code == .noSession {
            steps.ok("validAccessToken(for: alice) → noSession")
        }
        let active = try await introspect(oldToken, secret: resourceSecret, client: client)
        try demoExpect(!active, "the revoked access token is inactive")
        steps.ok("after: introspection says the old access token is inactive")
        let remaining = await client.accounts()
        try demoExpect(remaining.map(\.id) == [bob.id], "only bob remains signed in")
        steps.ok("still signed in: \(await labels(client, people))")
    }

    /// RFC 7662 introspection as the demo API would do it (confidential client, Basic auth).
    private func introspect(_ token: String, secret: String, client: SesameClient) async throws -> Bool {
        guard let endpoint = try await client.metadata().introspectionEndpoint else {
            throw CLIError("discovery lists no introspection_endpoint")
        }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        let credentials = "\(FormURLEncoding.escape(Self.resourceServerID)):\(FormURLEncoding.escape(secret))"
        request.setValue("Basic \(Data(credentials.utf8).base64EncodedString())", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            FormURLEncoding.encode([("token", token), ("token_type_hint", "access_token")]).utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw CLIError("introspection answered HTTP \(status)")
        }
        return try JSONDecoder().decode(IntrospectionResponse.self, from: data).active
    }
}
