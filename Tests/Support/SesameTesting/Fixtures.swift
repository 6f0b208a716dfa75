import Foundation
import SesameProtocol
import SesameServer

/// The clients and users every server test starts with.
public enum Fixtures {
    /// A public native app of the operator (first-party: native sign-in, account APIs):
    /// loopback and private-use-scheme redirects.
    public static let nativeApp = "native-app"
    public static let nativeRedirect = "com.example.app:/oauth2redirect"
    public static let loopbackRegistered = "http://127.0.0.1/callback"
    public static let nativePostLogout = "com.example.app:/signed-out"

    /// A second public app (browser SSO), ID tokens ES256; third-party, so no
    /// `/authorize-challenge` and no account APIs.
    public static let secondApp = "second-app"
    public static let secondRedirect = "com.example.second:/cb"

    /// A confidential backend client (client_credentials, introspection).
    public static let backend = "backend"
    public static let backendSecret = "backend-secret-" + String(repeating: "x", count: 32)
    public static let backendRedirect = "https://backend.example.com/callback"

    /// A public client without the refresh_token grant.
    public static let noRefreshApp = "no-refresh-app"
    public static let noRefreshRedirect = "com.example.norefresh:/cb"

    public static let username = "alice"
    public static let email = "alice@example.com"
    public static let password = "correct horse battery staple"

    public static func seed(_ store: any IdentityStore) async throws {
        let hasher = TestServer.hasher
        try await store.upsertClient(
            ClientRecord(
                clientID: nativeApp, name: "Native App",
                redirectURIs: [nativeRedirect, loopbackRegistered],
                postLogoutRedirectURIs: [nativePostLogout],
                allowedScopes: ["openid", "profile", "email", "phone", "address", "offline_access"],
                firstParty: true))
        try await store.upsertClient(
            ClientRecord(
                clientID: secondApp, name: "Second App", redirectURIs: [secondRedirect],
                idTokenSigningAlg: "ES256"))
        // The backend is also the resource server of the suites: it introspects every client's tokens.
        var backendClient = ClientRecord(
            clientID: backend, name: "Backend", secretHash: try hasher.hash(backendSecret),
            redirectURIs: [backendRedirect],
            grantTypes: [.authorizationCode, .refreshToken, .clientCredentials],
            allowedScopes: ["openid", "profile", "email", "api.read", "api.write"],
            tokenEndpointAuthMethod: .clientSecretBasic)
        backendClient.introspectsAnyToken = true
        try await store.upsertClient(backendClient)
        try await store.upsertClient(
            ClientRecord(
                clientID: noRefreshApp, name: "No Refresh", redirectURIs: [noRefreshRedirect],
                grantTypes: [.authorizationCode]))
        var claims = StandardClaims(sub: "")
        claims.name = "Alice Example"
        claims.givenName = "Alice"
        claims.phoneNumber = "+15550100"
        try await store.createUser(
            UserRecord(
                username: username, email: email, emailVerified: true,
                passwordHash: try hasher.hash(password), claims: claims))
    }
}
