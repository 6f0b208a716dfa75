import Crypto
import Foundation
import SesameProtocol
import Logging
import Synchronization

@testable import Sesame

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A suspension point tests open by hand (no sleeps, no timing).
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var arrivals = 0
    private var arrivalWaiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        arrivals += 1
        for waiter in arrivalWaiters { waiter.resume() }
        arrivalWaiters.removeAll()
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Returns once someone is waiting at the gate.
    func arrival() async {
        if arrivals > 0 { return }
        await withCheckedContinuation { arrivalWaiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

/// An in-memory OpenID provider behind ``HTTPTransport``: discovery, JWKS, token (code with
/// PKCE, rotating refresh), userinfo, revocation, plus a resource server at
/// https://api.test. `authorize(_:)` plays the browser + login page.
final class FakeProvider: HTTPTransport, @unchecked Sendable {
    struct Code { let challenge: String; let nonce: String; let redirectURI: String }

    struct State {
        var codes: [String: Code] = [:]
        var refreshTokens: Set<String> = []
        var accessTokens: Set<String> = []
        var revoked: [String] = []
        var requests: [String] = []
        var authorizationURLs: [URL] = []
        var refreshRequests = 0
        var jwksRequests = 0
        var tokenCounter = 0
        var refreshFailures: [Int] = []   // statuses to answer to the next refreshes
        var rejectResourceRequests = 0
        var requireStepUp = false
        var resourceTokens: [String] = []
        var userinfoSub: String?
        var signingKey: ES256TestKey
        var publishedKeys: [ES256TestKey]
        /// `expires_in` as sent: an `Int`, or any JSON value (`1e30`, `"NaN"`).
        var accessTokenLifetime: Any = 3600
        /// Headers added to every answer (a `Date` header, say).
        var responseHeaders: [String: String] = [:]
        var omitIss = false
        var wrongIss: String?
        var refreshGate: Gate?
        var extraClaims: [String: Any] = [:]
        var subject: String
    }

    let issuer = "https://id.test"
    let clientID = "app"
    let clock: any SesameClock
    private let lock = NSLock()
    private var state: State

    init(clock: any SesameClock, subject: String = "user-1") {
        self.clock = clock
        let key = ES256TestKey(kid: "k1")
        state = State(signingKey: key, publishedKeys: [key], subject: subject)
    }

    var configuration: SesameConfiguration {
        SesameConfiguration(
            issuer: URL(string: issuer)!, clientID: clientID,
            redirectURI: URL(string: "com.example.app:/oauth2redirect")!,
            allowedOrigins: [URL(string: "https://api.test")!])
    }

    func with<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Rotates to a new signing key, publishing it in the JWKS.
    func rotateKey(kid: String) {
        with { state in
            let key = ES256TestKey(kid: kid)
            state.signingKey = key
            state.publishedKeys.append(key)
        }
    }

    // MARK: Browser side

    /// Plays the login page: validates the request, returns the redirect with a code.
    func authorize(_ url: URL) throws -> URL {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value }
        guard query["response_type"] == "code", query["client_id"] == clientID,
            query["code_challenge_method"] == "S256", let challenge = query["code_challenge"],
            let redirect = query["redirect_uri"], let state = query["state"], let nonce = query["nonce"]
        else { throw URLError(.badURL) }
        let code = SecureRandom.token()
        let (omitIss, wrongIss) = with { s -> (Bool, String?) in
            s.codes[code] = Code(challenge: challenge, nonce: nonce, redirectURI: redirect)
            s.authorizationURLs.append(url)
            return (s.omitIss, s.wrongIss)
        }
        var items = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: state)]
        if !omitIss { items.append(URLQueryItem(name: "iss", value: wrongIss ?? issuer)) }
        var back = URLComponents(string: redirect)!
        back.queryItems = items
        return back.url!
    }

    // MARK: HTTP side

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let url = request.url!
        with { $0.requests.append("\(request.httpMethod ?? "GET") \(url.host ?? "")\(url.path)") }
        switch (url.host ?? "", url.path) {
        case ("id.test", "/.well-known/openid-configuration"): return json(200, discovery)
        case ("id.test", "/jwks"):
            let keys = with { s -> [[String: Any]] in
                s.jwksRequests += 1
                return s.publishedKeys.map(\.jwk)
            }
            return raw(200, JWKSJSON.data(keys))
        case ("id.test", "/token"): return try await token(request)
        case ("id.test", "/userinfo"):
            guard let token = bearer(request), with({ $0.accessTokens.contains(token) }) else {
                return json(401, ["error": "invalid_token"])
            }
            return json(200, ["sub": with { $0.userinfoSub ?? $0.subject }, "email": "ada@example.com"])
        case ("id.test", "/revoke"):
            let form = FormURLEncoding.decode(String(decoding: request.httpBody ?? Data(), as: UTF8.self)) ?? [:]
            with { $0.revoked.append(form["token"] ?? "") }
            return raw(200, Data())
        case ("api.test", _):
            let token = bearer(request) ?? ""
            if with({ $0.requireStepUp }) {
                with { $0.resourceTokens.append(token) }
                return raw(401, Data(), headers: [
                    "WWW-Authenticate": #"Bearer error="insufficient_user_authentication", acr_values="urn:sesame:mfa""#,
                ])
            }
            let reject = with { s -> Bool in
                s.resourceTokens.append(token)
                defer { s.rejectResourceRequests = max(0, s.rejectResourceRequests - 1) }
                return s.rejectResourceRequests > 0 || !s.accessTokens.contains(token)
            }
            return reject ? json(401, ["error": "invalid_token"]) : json(200, ["ok": true])
        default:
            return json(404, ["error": "not_found"])
        }
    }

    private var discovery: [String: Any] {
        [
            "issuer": issuer, "authorization_endpoint": "\(issuer)/authorize",
            "token_endpoint": "\(issuer)/token", "jwks_uri": "\(issuer)/jwks",
            "userinfo_endpoint": "\(issuer)/userinfo", "revocation_endpoint": "\(issuer)/revoke",
            "end_session_endpoint": "\(issuer)/logout", "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": true,
            "id_token_signing_alg_values_supported": ["ES256"],
        ]
    }

    private func token(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let form = FormURLEncoding.decode(String(decoding: request.httpBody ?? Data(), as: UTF8.self)) ?? [:]
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let stored = with({ $0.codes.removeValue(forKey: code) }),
                let verifier = form["code_verifier"], PKCE.verify(verifier: verifier, challenge: stored.challenge),
                form["redirect_uri"] == stored.redirectURI, form["client_id"] == clientID
            else { return json(400, ["error": "invalid_grant"]) }
            return json(200, issueTokens(nonce: stored.nonce))
        case "refresh_token":
            let gate = with { s -> Gate? in
                s.refreshRequests += 1
                return s.refreshGate
            }
            if let gate { await gate.wait() }
            if let status = with({ s -> Int? in s.refreshFailures.isEmpty ? nil : s.refreshFailures.removeFirst() }) {
                return json(status, ["error": status >= 500 ? "temporarily_unavailable" : "invalid_grant"])
            }
            guard let presented = form["refresh_token"],
                with({ $0.refreshTokens.remove(presented) }) != nil
            else { return json(400, ["error": "invalid_grant"]) }
            return json(200, issueTokens(nonce: nil))
        default:
            return json(400, ["error": "unsupported_grant_type"])
        }
    }

    func issueTokens(nonce: String?) -> [String: Any] {
        let now = clock.now()
        return with { s in
            s.tokenCounter += 1
            let access = "at-\(s.tokenCounter)-\(SecureRandom.token(byteCount: 8))"
            let refresh = "rt-\(s.tokenCounter)-\(SecureRandom.token(byteCount: 8))"
            s.accessTokens.insert(access)
            s.refreshTokens.insert(refresh)
            var extra = s.extraClaims
            extra["at_hash"] = AccessTokenHash.compute(accessToken: access, alg: "ES256")
            extra["name"] = "Ada Lovelace"
            extra["email"] = "ada@example.com"
            let claims = idTokenClaims(
                issuer: issuer, clientID: clientID, subject: s.subject, nonce: nonce, now: now, extra: extra)
            return [
                "access_token": access, "token_type": "Bearer", "expires_in": s.accessTokenLifetime,
                "refresh_token": refresh, "id_token": s.signingKey.sign(claims), "scope": "openid profile",
            ]
        }
    }

    private func bearer(_ request: URLRequest) -> String? {
        guard let header = request.value(forHTTPHeaderField: "Authorization"), header.hasPrefix("Bearer ")
        else { return nil }
        return String(header.dropFirst(7))
    }

    private func json(_ status: Int, _ body: [String: Any]) -> (Data, HTTPURLResponse) {
        raw(status, try! JSONSerialization.data(withJSONObject: body))
    }

    private func raw(_ status: Int, _ data: Data, headers: [String: String] = [:]) -> (Data, HTTPURLResponse) {
        let response = HTTPURLResponse(
            url: URL(string: issuer)!, statusCode: status, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"].merging(headers) { $1 }.merging(with { $0.responseHeaders }) { $1 })!
        return (data, response)
    }
}

/// A `HeadlessBrowserAgent` that signs in through the fake provider's "login page".
func headlessAgent(_ provider: FakeProvider) -> HeadlessBrowserAgent {
    HeadlessBrowserAgent { url in try provider.authorize(url) }
}

/// A client wired to the fake provider, with instant retries.
func makeClient(
    _ provider: FakeProvider, store: any CredentialStore = InMemoryCredentialStore(),
    clock: any SesameClock, logger: Logger = Logger(label: "test"), retries: Int = 2
) -> SesameClient {
    SesameClient(
        configuration: provider.configuration, store: store, transport: provider, clock: clock,
        logger: logger,
        retryPolicy: RetryPolicy(delays: Array(repeating: .zero, count: retries), sleep: { _ in }))
}
