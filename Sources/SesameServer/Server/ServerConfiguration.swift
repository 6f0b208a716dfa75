import Foundation

/// How to run one Sesame identity server: where it listens, which issuer it names
/// itself, where its data lives and the lifetimes that are not per client.
public struct ServerConfiguration: Sendable {
    /// Interface to bind. Default `127.0.0.1` (loopback only).
    public var host: String
    /// TCP port; `0` asks the operating system for a free port (tests).
    public var port: Int
    /// The OpenID Provider issuer identifier (OIDC Discovery §3, RFC 8414 §2). Default
    /// `http://<host>:<bound port>`. Must be `https` in production; `http` is accepted for
    /// loopback development.
    public var issuer: URL?
    /// Without ``issuer``: the host name of the default issuer (`http://<issuerHost>:<bound
    /// port>`), e.g. `localhost` when the server listens on 127.0.0.1. Browsers accept passkeys
    /// for a domain name, never an IP address (WebAuthn §5.1.3 step 8, docs/passkeys.md).
    public var issuerHost: String?
    /// The master key that seals signing keys, and the embedded SQLite database unless
    /// ``database`` names another. Every process of one deployment needs the same master key.
    public var dataDirectory: DataDirectory
    /// Where the data lives: `nil` is the SQLite file in ``dataDirectory``; a PostgreSQL
    /// database is shared by every `sesame serve` process of a deployment.
    public var database: StoreLocation?

    /// The store location in effect.
    public var storeLocation: StoreLocation { database ?? .sqlite(dataDirectory) }
    /// A declarative seed file applied at every start (clients and users), JSON or YAML
    /// (``SeedConfiguration``, ``SeedFileFormat``).
    public var seedFile: URL?
    /// Hashes passwords and client secrets (PHC strings).
    public var passwordHasher: any PasswordHasher
    /// RFC 6749 §4.1.2: "A maximum authorization code lifetime of 10 minutes is RECOMMENDED";
    /// Sesame uses 60 seconds.
    public var authorizationCodeLifetime: TimeInterval
    /// Lifetime of the browser SSO session behind the `sesame_session` cookie.
    public var browserSessionLifetime: TimeInterval
    /// How long an authorization request waits on the server for the user to sign in (the
    /// hosted login, a second factor, a provider, a sign-up detour): ``PendingAuthorizations``.
    /// Default 30 minutes (Keycloak's login timeout).
    public var signInTimeout: TimeInterval = PendingAuthorizations.defaultLifetime
    /// Clock used for every expiry decision. Injected so tests never sleep.
    public var now: @Sendable () -> Date
    /// Where new RSA signing keys come from; `nil`: swift-crypto (``RSAKeySource``).
    package var rsaKeySource: RSAKeySource?
    /// Delivery of email and SMS (verification codes, MFA codes, password reset). `nil`: the
    /// embedded outbox in the store, which `sesame outbox` prints.
    public var messageSender: (any MessageSender)?
    /// An SMTP relay for email when ``messageSender`` is `nil` (SMS then stays in the outbox).
    /// `nil`: the embedded outbox.
    public var smtp: SMTPConfiguration?
    /// Throttling of password guessing per login name and client address (``LoginThrottle``).
    public var loginThrottle: LoginThrottlePolicy
    /// Limits on account mail (codes) per recipient and per client address (``MailQuota``).
    public var mailQuota = MailQuota.Policy()
    /// Connection timeouts and the connection cap (``ConnectionLimits``).
    public var connectionLimits = ConnectionLimits()
    /// How often expired codes, tokens and sessions are deleted (``ExpiredDataPurge``; also
    /// once at start). Default 10 minutes; `nil` turns the purge off.
    public var purgeInterval: Duration?
    /// HTTPS: the certificate chain and key (``TLSFiles``); `nil` speaks plain HTTP (TLS left to a
    /// proxy). The issuer's scheme follows.
    public var tls: TLSFiles?
    /// Mutual TLS (RFC 8705; ``MutualTLSSettings``): client certificates are asked for on the
    /// server's TLS connections and read from trusted proxies' `Client-Cert` header, for
    /// `tls_client_auth`, `self_signed_tls_client_auth` and certificate-bound tokens. `nil`: off.
    public var mutualTLS: MutualTLSSettings?
    /// How long a client record is reused before it is read again (``ClientRecordCache``). On
    /// PostgreSQL a change made by another process also drops it at once (`NOTIFY`).
    public var clientCacheLifetime: Duration = .seconds(2)
    /// How often the key table is checked for keys another process rotated
    /// (``KeyChangeWatcher``). Default 1 s; `nil` leaves it to the key ring's 60 s refresh.
    public var keyChangeInterval: Duration? = .seconds(1)
    /// Reverse proxies in front of the server; for their connections the client address is
    /// read from `X-Forwarded-For` (``TrustedProxies``). Default: none, the TCP peer counts.
    public var trustedProxies: TrustedProxies
    /// Where `/metrics` (Prometheus text format, ``ServerMetrics``) is served: behind a bearer
    /// token on the main port, or on a port of its own. Default `nil`: no metrics at all.
    public var metrics: MetricsExposure?
    /// Request rate limits per client address and client (``RateLimitPolicy``; on by default,
    /// ``RateLimitPolicy/off`` turns them off).
    public var rateLimits = RateLimitPolicy()
    /// When sign-in, sign-up and password-reset requests must solve a challenge first
    /// (``ChallengePolicy``; automatic by default, ``ChallengePolicy/off`` turns it off).
    public var challenges = ChallengePolicy()
    /// How long audit records are kept (``AuditLog``); the purge deletes older ones. Default
    /// 90 days; `nil` keeps them forever.
    public var auditRetention: TimeInterval? = 90 * 86_400
    /// Whether security decisions are written to the audit log. Default `true`.
    public var auditLogEnabled = true
    /// Single sign-on across a vendor's apps: device-session lifetime and ID-token grace
    /// (``NativeSSOPolicy``).
    public var nativeSSO = NativeSSOPolicy()
    /// Passkeys (WebAuthn): the RP ID, app origins and challenge lifetime (``PasskeyPolicy``).
    public var passkeys = PasskeyPolicy()
    /// How many live sessions (refresh-token families) a user keeps (``SessionLimits``).
    public var sessionLimits = SessionLimits()
    /// Whether every client must push its authorization requests to `/par` first (RFC 9126 §5);
    /// a client can be required to on its own (``ClientRecord/requirePushedRequests``). Default
    /// `false`.
    public var requirePushedRequests = false
    /// DPoP (RFC 9449): whether proofs must carry a server nonce, and how old they may be.
    /// Tokens are bound whenever a client sends a proof.
    public var dpop = DPoPPolicy()
    /// The device authorization grant (RFC 8628): code lifetime, polling interval and the
    /// user-code guessing limits. The grant is served to clients registered for it.
    public var deviceAuthorization = DeviceAuthorizationPolicy()
    /// Dynamic client registration at `/register` (RFC 7591, RFC 7592): off by default.
    public var registration = ClientRegistrationPolicy()
    /// Whether the rate-limit counters are shared with other processes through the store
    /// (``RateLimiter``). Default: when the store is PostgreSQL, the only store several processes share.
    public var sharesRateLimits: Bool { database != nil }

    public init(
        dataDirectory: DataDirectory, host: String = "127.0.0.1", port: Int = 8080,
        issuer: URL? = nil, seedFile: URL? = nil,
        passwordHasher: any PasswordHasher = ScryptPasswordHasher()
    ) {
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.issuer = issuer
        self.seedFile = seedFile
        self.passwordHasher = passwordHasher
        self.authorizationCodeLifetime = 60
        self.browserSessionLifetime = 12 * 3600
        self.now = { Date() }
        self.messageSender = nil
        self.smtp = nil
        self.loginThrottle = LoginThrottlePolicy()
        self.purgeInterval = .seconds(600)
        self.trustedProxies = .none
    }
}

/// Why the server could not start. Each message says what to change.
public enum ServerStartError: Error, Sendable, CustomStringConvertible {
    /// The listening socket could not be bound.
    case bindFailed(host: String, port: Int, reason: String)
    /// The issuer URL is not an absolute `http(s)` URL without query or fragment
    /// (OIDC Discovery §3 / RFC 8414 §2).
    case invalidIssuer(String)
    /// The SMTP settings cannot work; the text says which setting to change.
    case invalidSMTPConfiguration(String)
    /// A port for mutual TLS was asked for without the server's own TLS certificate.
    case mutualTLSPortWithoutTLS
    /// A ``ConnectionLimits`` value is out of its range; the text names it and the range.
    case invalidConnectionLimit(String)

    public var description: String {
        switch self {
        case .bindFailed(let host, let port, let reason):
            "could not listen on \(host):\(port) (\(reason)); choose another port or stop the other process"
        case .invalidIssuer(let issuer):
            "issuer '\(issuer)' must be an absolute https URL (http only on loopback) without query or fragment"
        case .invalidSMTPConfiguration(let reason):
            "invalid SMTP settings: \(reason)"
        case .mutualTLSPortWithoutTLS:
            "a mutual TLS port needs the server's own certificate: add --tls-certificate and --tls-key"
        case .invalidConnectionLimit(let reason):
            "invalid connection limits: \(reason)"
        }
    }
}

extension ServerConfiguration {
    /// The identity core's settings (``ProviderSettings``) for a server whose issuer is `issuer`.
    func providerSettings(issuer: URL) -> ProviderSettings {
        var settings = ProviderSettings(issuer: issuer)
        settings.authorizationCodeLifetime = authorizationCodeLifetime
        settings.browserSessionLifetime = browserSessionLifetime
        settings.signInTimeout = signInTimeout
        settings.requirePushedRequests = requirePushedRequests
        settings.sessionLimits = sessionLimits
        settings.nativeSSO = nativeSSO
        settings.passkeys = passkeys
        settings.deviceAuthorization = deviceAuthorization
        settings.registration = registration
        settings.dpop = dpop
        settings.loginThrottle = loginThrottle
        settings.mailQuota = mailQuota
        return settings
    }
}

extension ConnectionLimits {
    /// Checks each timeout is above 0 and at most ``longestTimeout`` (not NaN), and that at least
    /// one connection may be open; ``IdentityServer/start(_:logger:)`` calls it first.
    func validate() throws(ServerStartError) {
        for (name, value) in [
            ("headerTimeout", headerTimeout), ("idleTimeout", idleTimeout), ("bodyTimeout", bodyTimeout),
            ("shutdownTimeout", shutdownTimeout),
        ] where !Self.isValidTimeout(value) {
            throw .invalidConnectionLimit(
                "\(name) is \(value): it must be a number of seconds above 0 and at most \(Int(Self.longestTimeout)), e.g. 30")
        }
        guard maximumConnections >= 1 else {
            throw .invalidConnectionLimit("maximumConnections is \(maximumConnections): it must be at least 1, e.g. 2000")
        }
    }
}
