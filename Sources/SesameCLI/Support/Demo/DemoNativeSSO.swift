import Foundation
import Sesame
import SesameProtocol
import SesameServer

/// The demo's single sign-on steps (docs/native-sso.md): two apps of one vendor share a sign-in
/// with no browser and no password, then sign out here and everywhere; and an app-level token
/// with the app's own key (private_key_jwt).
extension DemoWalkthrough {
    static let vendorApps = ["acme-mail", "acme-calendar"]

    /// Step 11: `user` signs in to the first app with `device_sso`; the second app joins through
    /// the shared group; logout in the first keeps the second; logout everywhere ends it.
    func singleSignOn(user: DemoUser) async throws {
        let admin = ServerAdmin(store: server.store, hasher: Self.demoHasher, keyRing: server.keyRing)
        for app in Self.vendorApps {
            _ = try await admin.addClient(
                ClientSpec(clientID: app, redirectURIs: [Self.redirectURI.absoluteString], firstParty: true, appGroup: "acme"))
        }
        steps.detail("clients \(Self.vendorApps.joined(separator: " and ")) in app group acme (token exchange, device_sso)")
        let group = InMemoryCredentialStore()  // a Keychain access group on Apple platforms
        func app(_ id: String) -> SesameClient {
            SesameClient(
                configuration: SesameConfiguration(issuer: server.issuer, clientID: id, redirectURI: Self.redirectURI),
                store: InMemoryCredentialStore(), transport: URLSessionTransport(), clock: SystemClock(),
                logger: Self.quietLogger, ssoGroup: group)
        }
        let mail = app(Self.vendorApps[0])
        guard case .signedIn = try await mail.login(username: user.username, password: user.password) else {
            throw CLIError("expectation failed: \(user.username) needed a second factor")
        }
        let sid = try await mail.idTokenClaims().sid ?? "-"
        steps.detail("\(Self.vendorApps[0]): password sign-in with device_sso → device_secret, ID token sid \(sid) + ds_hash")

        let calendar = app(Self.vendorApps[1])
        guard let offered = await calendar.sso.accounts().first else {
            throw CLIError("expectation failed: the second app saw no shared account")
        }
        steps.detail("\(Self.vendorApps[1]) offers \"Continue as \(offered.label)\"")
        try await calendar.sso.signIn(with: offered)
        let claims = try await calendar.idTokenClaims()
        steps.detail("POST /token grant_type=token-exchange (ID token + device secret) → aud \(claims.aud.joined()), same sid")
        try demoExpect(claims.sid == sid && claims.aud == [Self.vendorApps[1]], "the second app has its own tokens in the same session")

        _ = try await mail.sso.logout(.thisApp)
        _ = try await calendar.validAccessToken(forceRefresh: true)
        steps.detail("logout(.thisApp) in \(Self.vendorApps[0]): \(Self.vendorApps[1]) still refreshes")
        let events = calendar.events()
        let again = app(Self.vendorApps[0])
        try await again.sso.signIn(with: offered)
        _ = try await again.sso.logout(.everywhere)
        var ended = false
        do {
            _ = try await calendar.validAccessToken(forceRefresh: true)
        } catch {
            guard case .authenticationFailed(let apiError, _) = error.reason, apiError.code == .sessionEndedElsewhere else { throw error }
            ended = true
        }
        var iterator = events.makeAsyncIterator()
        var reason: SignOutReason?
        while reason == nil, let event = await iterator.next() {
            if case .signedOut(_, let why) = event { reason = why }
        }
        try demoExpect(ended && reason == .revokedElsewhere, "logout everywhere ends the other app")
        steps.ok("logout(.everywhere): \(Self.vendorApps[1])'s next refresh → invalid_grant 2012, signedOut(.revokedElsewhere)")
    }

    /// Step 12: a backend client authenticates with its own P-256 key (RFC 7523) and gets an
    /// app-level token; a thousand concurrent asks make one request.
    func appLevelToken() async throws {
        var configuration = SesameConfiguration(
            issuer: server.issuer, clientID: "acme-backend", redirectURI: Self.redirectURI)
        configuration.tokenEndpointAuthMethod = .privateKeyJWT
        let backend = SesameClient(
            configuration: configuration, store: InMemoryCredentialStore(), transport: URLSessionTransport(),
            clock: SystemClock(), logger: Self.quietLogger)
        let jwks = try await backend.clientPublicKeySet()
        let admin = ServerAdmin(store: server.store, hasher: Self.demoHasher, keyRing: server.keyRing)
        _ = try await admin.addClient(
            ClientSpec(clientID: "acme-backend", grantTypes: [.clientCredentials], scopes: ["catalog.read"], jwks: jwks))
        steps.detail("client acme-backend registered with the public half of the SDK's P-256 key (no secret)")
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1_000 { group.addTask { try await backend.appAccessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        try demoExpect(tokens.count == 1, "one app token for a thousand callers")
        steps.ok("1,000 concurrent appAccessToken() → one client_credentials request with a client assertion")
    }
}
