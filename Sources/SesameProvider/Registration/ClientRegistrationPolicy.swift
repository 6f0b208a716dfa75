import Foundation

/// What an operator lets apps register for themselves at `/register` (RFC 7591; `sesame serve
/// --registration`, docs/server.md). Off by default. Registered clients are third parties: never
/// first-party, never an app group, no admin scopes, and they sign the user in through the
/// browser every time (no silent single sign-on into an app nobody approved).
public struct ClientRegistrationPolicy: Sendable, Equatable {
    /// Who may register.
    public enum Mode: String, Sendable, CaseIterable {
        /// No `/register` endpoint (the default).
        case off
        /// Anyone (rate-limited): what AI agents and command-line tools that discover an API
        /// expect (the Model Context Protocol's authorization).
        case open
        /// Only with an initial access token an operator created (`sesame registration token
        /// create`), sent as `Authorization: Bearer` (RFC 7591 §3).
        case token
    }

    public var mode: Mode
    /// Whether a registration may ask for a client secret (`client_secret_basic` or
    /// `client_secret_post`); without it only public clients (`none`, PKCE) register.
    public var allowsConfidentialClients: Bool
    /// Whether a confidential registered client may use `client_credentials`.
    public var allowsClientCredentials: Bool
    /// The scopes a registered client may ask for; also its scopes when it names none.
    public var scopes: [String]
    /// The registered APIs (RFC 8707) a registered client may ask tokens for, with the scopes they
    /// define; none unless the operator names them: a client nobody vetted gets no token for an
    /// API the operator did not open to it (`--registration-api`).
    public var apis: [String]
    /// A registered client that obtained no token within this many seconds is removed.
    public var unusedClientLifetime: TimeInterval
    /// Registrations per hour from everyone together (every process counts in one window).
    public var registrationsPerHour: Int

    public init(
        mode: Mode = .off, allowsConfidentialClients: Bool = false, allowsClientCredentials: Bool = false,
        scopes: [String] = ["openid", "profile", "email", "offline_access"], unusedClientLifetime: TimeInterval = 24 * 3600,
        registrationsPerHour: Int = 1000, apis: [String] = []
    ) {
        self.apis = apis
        self.mode = mode
        self.allowsConfidentialClients = allowsConfidentialClients
        self.allowsClientCredentials = allowsClientCredentials
        self.scopes = scopes
        self.unusedClientLifetime = unusedClientLifetime
        self.registrationsPerHour = registrationsPerHour
    }

    /// The endpoint's path (RFC 7591 §3), and the client configuration endpoint's prefix (RFC 7592 §2).
    public static let path = "/register"
}
