import SesameTesting
import Foundation
import SesameProtocol
import Testing

/// Drives the browser side of the authorization code flow with PKCE against a ``TestServer``,
/// the way a user agent would: GET /authorize, read the login form, POST /login, follow
/// nothing, read the 303.
struct OAuthFlow {
    let browser: HTTPTestClient
    var clientID: String = Fixtures.nativeApp
    var redirectURI: String = Fixtures.nativeRedirect
    var scope: String = "openid profile email offline_access"
    /// `false`: the authorization request has no `code_challenge`/`code_challenge_method`, as a
    /// confidential client relying on `nonce` sends it (RFC 9700 §2.1.1).
    var sendsPKCE = true

    /// One authorization attempt's secrets.
    struct Attempt {
        var pkce = PKCE()
        var state = SecureRandom.token(byteCount: 16)
        var nonce = SecureRandom.token(byteCount: 16)
    }

    func parameters(_ attempt: Attempt, extra: [String: String] = [:]) -> [String: String] {
        var parameters = [
            "client_id": clientID, "redirect_uri": redirectURI, "response_type": "code",
            "scope": scope, "state": attempt.state, "nonce": attempt.nonce,
        ]
        if sendsPKCE {
            parameters["code_challenge"] = attempt.pkce.challenge
            parameters["code_challenge_method"] = "S256"
        }
        return parameters.merging(extra) { $1 }
    }

    func authorize(_ attempt: Attempt, extra: [String: String] = [:]) async throws -> TestResponse {
        try await browser.get("/authorize", query: parameters(attempt, extra: extra))
    }

    /// Submits the login form from `page` with the given credentials.
    func submitLogin(
        page: TestResponse, username: String = Fixtures.username, password: String = Fixtures.password
    ) async throws -> TestResponse {
        var fields = HTMLForm(html: page.text).fields
        fields["username"] = username
        fields["password"] = password
        return try await browser.postForm("/login", fields)
    }

    /// Browser sign-in; returns the authorization code from the redirect. When the browser
    /// already has an SSO session the server redirects at once and no form is submitted.
    func signIn(_ attempt: Attempt, extra: [String: String] = [:]) async throws -> String {
        let page = try await authorize(attempt, extra: extra)
        if page.status == 303 {
            #expect(page.locationQuery["state"] == attempt.state)
            return try #require(page.locationQuery["code"], "no code in \(page.location ?? "")")
        }
        try #require(page.status == 200, "expected the login form, got \(page.status) \(page.text)")
        let redirect = try await submitLogin(page: page)
        try #require(redirect.status == 303, "login failed: \(redirect.status) \(redirect.text)")
        #expect(redirect.locationQuery["state"] == attempt.state)
        return try #require(redirect.locationQuery["code"])
    }

    /// Exchanges a code at the token endpoint (public client).
    func exchange(_ code: String, attempt: Attempt, redirectURI: String? = nil) async throws -> TestResponse {
        try await browser.postForm(
            "/token",
            [
                "grant_type": "authorization_code", "code": code,
                "redirect_uri": redirectURI ?? self.redirectURI, "client_id": clientID,
                "code_verifier": attempt.pkce.verifier,
            ])
    }

    /// Sign-in and code exchange; returns the token response.
    func tokens(extra: [String: String] = [:]) async throws -> (TokenResponse, Attempt) {
        let attempt = Attempt()
        let code = try await signIn(attempt, extra: extra)
        let response = try await exchange(code, attempt: attempt)
        try #require(response.status == 200, "token exchange failed: \(response.text)")
        return (try response.json(TokenResponse.self), attempt)
    }
}

extension HTTPTestClient {
    /// `Authorization: Basic` for a client id and secret (RFC 6749 §2.3.1).
    static func basic(_ id: String, _ secret: String) -> [String: String] {
        let raw = "\(FormURLEncoding.escape(id)):\(FormURLEncoding.escape(secret))"
        return ["Authorization": "Basic " + Data(raw.utf8).base64EncodedString()]
    }

    func refresh(_ token: String, clientID: String = Fixtures.nativeApp, scope: String? = nil) async throws
        -> TestResponse
    {
        var form = ["grant_type": "refresh_token", "refresh_token": token, "client_id": clientID]
        if let scope { form["scope"] = scope }
        return try await postForm("/token", form)
    }

    func introspect(_ token: String, hint: String? = nil) async throws -> TestResponse {
        var form = ["token": token]
        form["token_type_hint"] = hint
        return try await postForm(
            "/introspect", form, headers: Self.basic(Fixtures.backend, Fixtures.backendSecret))
    }

    func userInfo(_ accessToken: String) async throws -> TestResponse {
        try await get("/userinfo", headers: ["Authorization": "Bearer \(accessToken)"])
    }
}
