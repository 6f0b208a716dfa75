import Crypto
import Foundation
import Hummingbird
import SesameProtocol

/// How an operator signs in to the admin console (issue #47): through the hosted login, as the
/// first-party client ``AdminConsoleClient`` of this server (authorization code with PKCE S256,
/// `acr_values` multi-factor, the client's `always` second-factor policy), the code redeemed in
/// this process. Nothing a later step trusts travels through the browser:
///
/// - the sign-in's `state` and PKCE verifier are MACs of a random 256-bit value in the
///   `sesame_admin_login` cookie (HttpOnly, `SameSite=Lax`, `Path=/admin`, 10 minutes), keyed by
///   the deployment's master key (HKDF), so any process can finish a sign-in another began and a
///   callback without that browser's cookie fails;
/// - the session is the console's own access token in the `sesame_admin` cookie (HttpOnly,
///   `SameSite=Strict`, `Path=/admin`, `__Secure-` with an https issuer), checked on every request
///   exactly as a presented token is (signature, expiry, revocation, the user not disabled, the
///   role), so it lasts at most the client's 15 minutes and ends at once when the operator is
///   disabled or signs out (the token is revoked).
///
/// A destructive change needs a sign-in of the last 5 minutes (``AdminActor/requireRecentSignIn(now:)``):
/// the console then sends the operator through a sign-in with `max_age=0` and back to the page.
struct ConsoleSession: Sendable {
    let provider: Provider
    let authentication: AdminAuthentication
    let sessionCookie: String
    let loginCookie: String
    let secure: Bool
    private let key: SymmetricKey

    init(provider: Provider, authentication: AdminAuthentication, masterKey: SymmetricKey, cookies: BrowserCookies) {
        self.provider = provider
        self.authentication = authentication
        let https = provider.settings.issuer.scheme?.lowercased() == "https"
        sessionCookie = (https ? "__Secure-" : "") + "sesame_admin"
        loginCookie = (https ? "__Secure-" : "") + "sesame_admin_login"
        secure = cookies.secure
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("sesame admin console v1".utf8), outputByteCount: 32)
    }

    var redirectURI: String { provider.issuer + AdminConsoleClient.callbackPath }

    // MARK: Signing in

    /// `GET /admin/login?return=…&fresh=1`: a redirect to `/authorize` for the console, with a
    /// new login cookie; `fresh` asks for a new sign-in (`max_age=0`) before a destructive change.
    func start(returnTo: String?, fresh: Bool) -> Response {
        let nonce = SecureRandom.token()
        let target = Self.safeReturn(returnTo) ?? "/admin"
        var query = URLComponents()
        query.queryItems = [
            URLQueryItem(name: OAuthParameter.responseType, value: "code"),
            URLQueryItem(name: OAuthParameter.clientID, value: AdminConsoleClient.id),
            URLQueryItem(name: OAuthParameter.redirectURI, value: redirectURI),
            URLQueryItem(name: OAuthParameter.scope, value: "openid " + AdminConsoleClient.scope),
            URLQueryItem(name: OAuthParameter.state, value: mac("state", nonce)),
            URLQueryItem(name: OAuthParameter.codeChallenge, value: PKCE.challenge(for: mac("verifier", nonce))),
            URLQueryItem(name: OAuthParameter.codeChallengeMethod, value: PKCE.method),
            URLQueryItem(name: OAuthParameter.acrValues, value: AuthenticationContextClass.multiFactor),
        ]
        if fresh { query.queryItems?.append(URLQueryItem(name: OAuthParameter.maxAge, value: "0")) }
        let cookieValue = nonce + "." + Base64URL.encode(Data(target.utf8))
        return Response(
            status: .seeOther,
            headers: [
                .location: "/authorize?" + (query.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B"),
                .setCookie: cookie(loginCookie, cookieValue, maxAge: 600, sameSite: "Lax"),
                .cacheControl: "no-store",
            ])
    }

    /// The outcome of `GET /admin/callback`.
    enum Callback {
        /// Signed in: the session cookie to set and where to go.
        case signedIn(token: String, lifetime: Int, returnTo: String)
        /// Refused, with the reason to show (never a secret).
        case refused(String)
    }

    /// Checks `state` against the login cookie and redeems the code for the console's token.
    func finish(_ request: Request, context: SesameRequestContext) async throws -> Callback {
        let query = request.uri.queryParameters
        guard let cookie = BrowserCookies.value(loginCookie, in: request) else {
            return .refused("this browser did not start the sign-in (its login cookie is missing or expired)")
        }
        let parts = cookie.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].utf8.count == 43,
            let target = Base64URL.decode(parts[1]).flatMap({ String(data: $0, encoding: .utf8) }).flatMap(Self.safeReturn)
        else { return .refused("the login cookie is malformed") }
        if let error = query["error"].map(String.init) {
            return .refused(String(error.prefix(100)))
        }
        guard let state = query["state"].map(String.init), ConstantTime.equals(state, mac("state", parts[0])) else {
            return .refused("the state does not belong to this browser's sign-in")
        }
        guard let code = query["code"].map(String.init), !code.isEmpty else { return .refused("no code came back") }
        guard let client = try await provider.store.client(id: AdminConsoleClient.id) else {
            return .refused("the console's client is not registered; restart the server")
        }
        let tokens: TokenResponse
        do {
            tokens = try await provider.grants.authorizationCode.exchange(
                AuthorizationCodeRequest(code: code, redirectURI: redirectURI, codeVerifier: mac("verifier", parts[0])),
                client: client, origin: RequestOrigin(context))
        } catch let failure as ProviderFailure {
            return .refused(failure.description ?? failure.code.error)
        }
        return .signedIn(
            token: tokens.accessToken, lifetime: tokens.expiresIn ?? AdminConsoleClient.sessionLifetime, returnTo: target)
    }

    // MARK: The session

    /// The session's token, if the request carries one.
    func token(in request: Request) -> String? { BrowserCookies.value(sessionCookie, in: request) }

    /// The operator of the request's session; throws as ``AdminAuthentication`` does (a missing
    /// or dead session is `invalid_token`).
    func actor(_ request: Request, context: SesameRequestContext) async throws -> AdminActor {
        guard let token = token(in: request), token.utf8.count <= 8192 else {
            throw EndpointFailure(.invalidToken, "No console session.", status: .unauthorized)
        }
        return try await authentication.authenticate(sessionToken: token, context: context)
    }

    /// Revokes the session's token (its `jti`, until it would have expired).
    func revoke(_ request: Request) async {
        guard let token = token(in: request), let claims = try? await provider.accessTokens.activeClaims(token) else { return }
        try? await provider.store.revokeAccessToken(jti: claims.jti, expiresAt: Date(timeIntervalSince1970: TimeInterval(claims.exp)))
    }

    func setSession(_ token: String, lifetime: Int) -> String {
        cookie(sessionCookie, token, maxAge: max(0, min(lifetime, AdminConsoleClient.sessionLifetime)), sameSite: "Strict")
    }

    func clearSession() -> String { cookie(sessionCookie, "", maxAge: 0, sameSite: "Strict") }
    func clearLogin() -> String { cookie(loginCookie, "", maxAge: 0, sameSite: "Lax") }

    // MARK: Helpers

    /// A path of the console to return to: `/admin` or below it (not the API), no scheme, host,
    /// backslash, dot segment, encoded slash or control character, at most 512 bytes; `nil` otherwise (no open redirect).
    static func safeReturn(_ path: String?) -> String? {
        guard let path, path.utf8.count <= 512, path == "/admin" || path.hasPrefix("/admin/") || path.hasPrefix("/admin?"),
            !path.hasPrefix("/admin/api"), !path.contains("//"), !path.contains("\\"), !path.contains("/."),
            !path.lowercased().contains("%2f"), !path.lowercased().contains("%5c"),
            path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return nil }
        return path
    }

    private func mac(_ purpose: String, _ nonce: String) -> String {
        Base64URL.encode(
            Data(HMAC<SHA256>.authenticationCode(for: Data("sesame admin console \(purpose) v1:\(nonce)".utf8), using: key)))
    }

    private func cookie(_ name: String, _ value: String, maxAge: Int, sameSite: String) -> String {
        var text = "\(name)=\(value); Path=/admin; Max-Age=\(maxAge); HttpOnly; SameSite=\(sameSite)"
        if secure { text += "; Secure" }
        return text
    }
}
