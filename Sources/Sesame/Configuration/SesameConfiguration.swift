import Foundation
import SesameProtocol

/// How an app talks to its OpenID provider ("Configuration in code or from a JSON
/// file"). Everything else (endpoints, keys) comes from discovery (OIDC Discovery 1.0 §4).
///
/// The JSON form uses snake_case keys:
/// ```json
/// { "issuer": "https://id.example.com", "client_id": "com.example.app",
///   "redirect_uri": "com.example.app:/oauth2redirect",
///   "scopes": ["openid", "profile", "email", "offline_access"],
///   "allowed_origins": ["https://api.example.com"], "leeway": 60, "refresh_ahead": 60 }
/// ```
public struct SesameConfiguration: Codable, Sendable, Equatable {
    /// The provider's issuer identifier; `https` except loopback hosts during development.
    public var issuer: URL
    /// The `client_id` registered for this app at the provider (RFC 6749 §2.2).
    public var clientID: String
    /// Only for confidential desktop clients; native apps cannot keep secrets (RFC 8252 §8.5).
    public var clientSecret: String?
    /// The redirect URI registered for this client (RFC 8252 §7): needed for browser sign-in
    /// only. An app that signs in on another device (RFC 8628), natively or with an SSO or
    /// provider token leaves it out.
    public var redirectURI: URL?
    /// The scopes of a sign-in (``SignInOptions/scopes`` overrides them per sign-in); must include
    /// `openid`. Add `offline_access` for a refresh token (OIDC Core §11).
    public var scopes: [String]
    /// Resource origins that may receive the access token; the issuer's origin always may.
    public var allowedOrigins: [URL]
    /// Clock-skew tolerance for `exp`/`iat`, in seconds.
    public var leeway: TimeInterval
    /// Refresh this many seconds before the access token expires.
    public var refreshAhead: TimeInterval
    /// The hardest proof-of-work challenge the SDK solves on its own (leading zero bits); a
    /// harder one fails with ``SesameError/Code-swift.struct/challengeTooHard`` instead of
    /// running the battery down. Default 24 (about 17 million hashes: a few seconds on a phone).
    public var maximumChallengeDifficulty: Int = 24
    /// The scrypt cost of sealing a new device PIN key (``PINKeyDerivation``; 64 MiB by default).
    /// Existing registrations keep the cost they were sealed with.
    public var pinKeyDerivation = PINKeyDerivation()
    /// A PIN-unlocked session not used for this long is locked (forgotten; unlock again).
    /// Default 15 minutes; `nil`: it lasts until the app ends.
    public var pinSessionIdleTimeout: TimeInterval? = 15 * 60
    /// How the app authenticates at the token endpoint. `nil` (default): with a
    /// ``clientSecret`` `client_secret_basic` (or `_post`), else a public client (`none`).
    /// `ClientAuthenticationMethod.privateKeyJWT`: RFC 7523 assertions signed with a P-256
    /// key the SDK creates and keeps in the app's store (``SesameClient/clientPublicKeySet()``).
    public var tokenEndpointAuthMethod: ClientAuthenticationMethod?
    /// The federation providers the app offers (their names on the server, e.g. `apple`,
    /// `acme-id`; docs/federation.md). Empty: any the server knows. With a list,
    /// ``SesameClient/Federation/signIn(withProviderToken:provider:nonce:)`` refuses other names before
    /// any request.
    public var federationProviders: [String] = []
    /// How much the SDK logs to standard error when the app passes no `Logger`: ``SesameLogLevel/warning``
    /// by default (JSON `log_level`: `off`, `error`, `warning`, `info`, `debug`).
    public var logLevel: SesameLogLevel = .warning
    /// Whether browser sign-ins push their authorization request to the server first (RFC 9126,
    /// ``PushedAuthorization``). Default ``PushedAuthorization/whenRequired``.
    public var pushedAuthorization: PushedAuthorization = .whenRequired

    /// When the SDK pushes its authorization requests (RFC 9126): the parameters then go to the
    /// server over the back channel, and the browser carries only `client_id` and a one-time
    /// `request_uri`.
    public enum PushedAuthorization: String, Sendable, Codable, CaseIterable {
        /// When discovery says `require_pushed_authorization_requests`.
        case whenRequired = "when_required"
        /// Always; a server without a `pushed_authorization_request_endpoint` is refused with
        /// ``SesameError/Code-swift.struct/invalidConfiguration`` (use it for a client registered
        /// with `--require-par`, which discovery cannot announce).
        case always
        /// Never: the request is in the browser's URL.
        case never
    }

    /// Whether the account's tokens are bound to a key of the device with DPoP (RFC 9449), so a
    /// copy of the tokens is useless without it. Default ``DPoPBinding/off``.
    public var dpop: DPoPBinding = .off

    /// When the SDK binds tokens to a DPoP key (RFC 9449): a key is made for each account at
    /// sign-in (in the Secure Enclave where the device has one), every token request carries a
    /// proof signed with it, and so does every ``SesameClient/data(for:account:)`` call.
    public enum DPoPBinding: String, Sendable, Codable, CaseIterable {
        /// Bearer tokens, no proofs.
        case off
        /// When discovery announces `dpop_signing_alg_values_supported` with `ES256`.
        case whenSupported = "when_supported"
        /// Always; a server that does not announce DPoP is refused with
        /// ``SesameError/Code-swift.struct/invalidConfiguration`` before any sign-in.
        case required
    }

    /// Certificate pins by host (RFC 7469's `pin-sha256` form, as OkHttp and TrustKit): every
    /// request the SDK makes to a pinned host (discovery, keys, tokens, userinfo, the account APIs,
    /// ``SesameClient/data(for:account:)``) is sent only when the system trusts the server's
    /// certificate **and** one key of its chain is pinned. Enforced by ``URLSessionTransport`` on
    /// Apple platforms and by `NIOTransport` (product `SesameNIOTransport`) on Linux; another
    /// transport is refused before any request. Browser sign-in pages are outside (<doc:PinningCertificates>).
    /// JSON `pinning`: an array of ``PinnedHost``.
    public var pinning: CertificatePinning = .none
    /// The APIs the app calls, by their identifiers as registered with the provider (RFC 8707
    /// resources, `sesame api add`), JSON key `apis`. Sign-in asks for all of them; ``SesameClient/data(for:account:)``
    /// sends each request under an API (the identifier is its URL's prefix) a token for that API
    /// alone, one per API, cached and refreshed with `resource`, so one API never holds a token
    /// another would accept. Their origins may receive tokens (as ``allowedOrigins``).
    public var apis: [URL] = []

    /// The scopes requested when none are configured.
    public static let defaultScopes = ["openid", "profile", "email", "offline_access"]

    /// A configuration in code; the other settings keep their defaults. Call ``validate()`` to
    /// check it (``SesameClient`` also does before discovery).
    public init(
        issuer: URL, clientID: String, redirectURI: URL? = nil,
        scopes: [String] = SesameConfiguration.defaultScopes, allowedOrigins: [URL] = [],
        clientSecret: String? = nil, leeway: TimeInterval = 60, refreshAhead: TimeInterval = 60
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.allowedOrigins = allowedOrigins
        self.leeway = leeway
        self.refreshAhead = refreshAhead
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case redirectURI = "redirect_uri"
        case scopes
        case allowedOrigins = "allowed_origins"
        case leeway
        case refreshAhead = "refresh_ahead"
        case maximumChallengeDifficulty = "max_challenge_difficulty"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case federationProviders = "federation_providers"
        case pushedAuthorization = "pushed_authorization"
        case dpop
        case logLevel = "log_level"
        case pinning
        case apis
    }

    /// Decodes the snake_case JSON form shown above: `issuer`, `client_id` and `redirect_uri` are
    /// required, `scopes` may be an array or a space-separated string, the rest take their defaults.
    /// Does not validate; ``load(from:)`` does both.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try c.decode(URL.self, forKey: .issuer)
        clientID = try c.decode(String.self, forKey: .clientID)
        clientSecret = try c.decodeIfPresent(String.self, forKey: .clientSecret)
        redirectURI = try c.decodeIfPresent(URL.self, forKey: .redirectURI)
        if let list = try? c.decodeIfPresent([String].self, forKey: .scopes) {
            scopes = list
        } else if let text = try c.decodeIfPresent(String.self, forKey: .scopes) {
            scopes = ScopeList.parse(text)
        } else {
            scopes = Self.defaultScopes
        }
        allowedOrigins = try c.decodeIfPresent([URL].self, forKey: .allowedOrigins) ?? []
        leeway = try c.decodeIfPresent(TimeInterval.self, forKey: .leeway) ?? 60
        refreshAhead = try c.decodeIfPresent(TimeInterval.self, forKey: .refreshAhead) ?? 60
        maximumChallengeDifficulty = try c.decodeIfPresent(Int.self, forKey: .maximumChallengeDifficulty) ?? 24
        tokenEndpointAuthMethod = try c.decodeIfPresent(ClientAuthenticationMethod.self, forKey: .tokenEndpointAuthMethod)
        federationProviders = try c.decodeIfPresent([String].self, forKey: .federationProviders) ?? []
        pushedAuthorization = try c.decodeIfPresent(PushedAuthorization.self, forKey: .pushedAuthorization) ?? .whenRequired
        dpop = try c.decodeIfPresent(DPoPBinding.self, forKey: .dpop) ?? .off
        logLevel = try c.decodeIfPresent(SesameLogLevel.self, forKey: .logLevel) ?? .warning
        pinning = try c.decodeIfPresent(CertificatePinning.self, forKey: .pinning) ?? .none
        apis = try c.decodeIfPresent([URL].self, forKey: .apis) ?? []
    }

    /// Reads and validates a configuration file shipped with the app.
    public static func load(from url: URL) throws(SesameError) -> SesameConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .invalidConfiguration(
                "Cannot read the configuration file \(url.path): \(error.localizedDescription). Check that the file is bundled with the app.")
        }
        let configuration: SesameConfiguration
        do {
            configuration = try JSONDecoder().decode(SesameConfiguration.self, from: data)
        } catch {
            throw .invalidConfiguration(
                "The configuration file \(url.lastPathComponent) is not valid: \(Self.describe(error)). Required keys: issuer, client_id, redirect_uri.")
        }
        try configuration.validate()
        return configuration
    }

    /// Checks the rules a usable configuration must meet; the error says which one failed.
    public func validate() throws(SesameError) {
        guard let scheme = issuer.scheme?.lowercased(), let host = issuer.host, !host.isEmpty
        else {
            throw .invalidConfiguration("issuer \"\(issuer.absoluteString)\" is not an absolute URL; use e.g. https://id.example.com.")
        }
        guard scheme == "https" || (scheme == "http" && LoopbackHost.contains(host)) else {
            throw .invalidConfiguration(
                "issuer \"\(issuer.absoluteString)\" must use https (plain http is only allowed for loopback hosts such as 127.0.0.1 during development).")
        }
        guard issuer.query == nil, issuer.fragment == nil else {
            throw .invalidConfiguration("issuer must not contain a query or fragment (OpenID Connect Discovery §2).")
        }
        guard !clientID.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidConfiguration("client_id is empty; use the client id registered with the provider.")
        }
        if let redirectURI {
            guard let redirectScheme = redirectURI.scheme, !redirectScheme.isEmpty else {
                throw .invalidConfiguration("redirect_uri \"\(redirectURI.absoluteString)\" has no scheme; use a registered URI such as com.example.app:/oauth2redirect or http://127.0.0.1/callback.")
            }
            if redirectScheme.lowercased() == "http", !LoopbackHost.contains(redirectURI.host ?? "") {
                throw .invalidConfiguration("redirect_uri \"\(redirectURI.absoluteString)\" uses http on a non-loopback host; use https, a private-use scheme, or a loopback IP (RFC 8252 §7).")
            }
            guard redirectURI.fragment == nil else {
                throw .invalidConfiguration("redirect_uri must not contain a fragment (RFC 6749 §3.1.2).")
            }
        }
        guard scopes.contains("openid") else {
            throw .invalidConfiguration("scopes must include \"openid\" for OpenID Connect sign-in.")
        }
        for origin in allowedOrigins {
            guard let host = origin.host, let scheme = origin.scheme?.lowercased(),
                scheme == "https" || (scheme == "http" && LoopbackHost.contains(host))
            else {
                throw .invalidConfiguration("allowed origin \"\(origin.absoluteString)\" must be an https origin (or http on a loopback host).")
            }
        }
        guard leeway >= 0, leeway <= 600 else {
            throw .invalidConfiguration("leeway must be between 0 and 600 seconds (got \(leeway)).")
        }
        if tokenEndpointAuthMethod == .privateKeyJWT, clientSecret != nil {
            throw .invalidConfiguration("token_endpoint_auth_method private_key_jwt uses the app's key, not client_secret; remove one of them.")
        }
        if tokenEndpointAuthMethod == .clientSecretBasic || tokenEndpointAuthMethod == .clientSecretPost, clientSecret == nil {
            throw .invalidConfiguration("token_endpoint_auth_method \(tokenEndpointAuthMethod!.rawValue) needs client_secret.")
        }
        for api in apis {
            guard let host = api.host, let scheme = api.scheme?.lowercased(),
                scheme == "https" || (scheme == "http" && LoopbackHost.contains(host)), api.fragment == nil, api.query == nil
            else {
                throw .invalidConfiguration(
                    "api \"\(api.absoluteString)\" must be an https URL (or http on a loopback host) without a query or fragment, exactly as the provider registered it (RFC 8707).")
            }
        }
        guard refreshAhead >= 0 else {
            throw .invalidConfiguration("refresh_ahead must not be negative (got \(refreshAhead)).")
        }
        try pinning.validate()
    }

    /// The valid values of the keys that take one of a few words.
    static let validValues: [String: [String]] = [
        CodingKeys.pushedAuthorization.rawValue: PushedAuthorization.allCases.map(\.rawValue),
        CodingKeys.dpop.rawValue: DPoPBinding.allCases.map(\.rawValue),
        CodingKeys.tokenEndpointAuthMethod.rawValue: ClientAuthenticationMethod.allCases.map(\.rawValue),
        CodingKeys.logLevel.rawValue: SesameLogLevel.allCases.map(\.rawValue),
    ]

    /// A decoding failure as a sentence naming the key, what is wrong and, for a key that takes
    /// one of a few words, every valid one.
    static func describe(_ error: any Error) -> String {
        func key(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        func valid(_ context: DecodingError.Context) -> String {
            guard let name = context.codingPath.first?.stringValue, let values = validValues[name] else { return "" }
            return "; use one of: " + values.joined(separator: ", ")
        }
        switch error as? DecodingError {
        case .keyNotFound(let missing, _): return "missing key \"\(missing.stringValue)\""
        case .typeMismatch(let type, let context):
            return "\"\(key(context))\" has the wrong type (expected \(Self.jsonName(of: type)))\(valid(context))"
        case .valueNotFound(let type, let context):
            return "\"\(key(context))\" is null (expected \(Self.jsonName(of: type)))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not JSON: \(context.debugDescription)"
        case .dataCorrupted(let context) where context.codingPath.first?.stringValue == CodingKeys.pinning.rawValue:
            return "\"\(key(context))\" has an invalid value: \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "\"\(key(context))\" has an invalid value\(valid(context))"
        default: return String(describing: error)
        }
    }

    private static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type, is URL.Type: "a string"
        case is Int.Type, is Double.Type, is TimeInterval.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String].Type, is [URL].Type: "an array of strings"
        default: "\(type)"
        }
    }
}
