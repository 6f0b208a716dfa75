import Foundation
import SesameStore

/// Request rate limits by endpoint class, per client address (IPv6 by /64, behind trusted
/// proxies the client they name: ``ClientAddressKey``) and per client id. The
/// defaults leave room for a whole office behind one NAT address and never bother a real user;
/// they are there to stop floods (credential stuffing, sign-up and mail floods, token endpoint
/// hammering), not to meter use. Windows are fixed and aligned to their length, so every
/// process of a deployment counts in the same window (``RateLimiter``).
public struct RateLimitPolicy: Sendable, Equatable {
    /// Endpoints that share a limit.
    public enum EndpointClass: String, Sendable, CaseIterable {
        /// `/token`, `/revoke`, `/introspect`, `/device_authorization`.
        case token
        /// The password, passkey and MFA steps: `POST /login`, `/authorize-challenge`, `/authorize`,
        /// the routes that hand out passkey challenges, and the device page's code and decision
        /// forms (RFC 8628 §3.3).
        case signIn = "sign_in"
        /// Account creation: `POST /api/signup`, `POST /signup`.
        case accountCreation = "account_creation"
        /// Requests that may send mail: password reset, email change, their hosted pages.
        case mail
        /// Discovery and keys: `/.well-known/…`, `/jwks`.
        case discovery
        /// Dynamic client registration: `/register` and its client configuration endpoint.
        case registration

        /// The class of a route (the router's pattern), `nil` for routes without a limit.
        public static func of(route: String, method: String) -> EndpointClass? {
            switch route {
            case "/token", "/revoke", "/introspect", "/device_authorization": return .token
            case "/login", "/authorize-challenge", "/authorize": return .signIn
            // Each hands out a stored passkey challenge (docs/passkeys.md).
            case "/login/passkey", "/account/passkeys/options", "/api/passkeys/options": return .signIn
            case "/device", "/device/decision": return method == "POST" ? .signIn : nil
            case "/api/signup": return .accountCreation
            case "/signup": return method == "POST" ? .accountCreation : nil
            case "/api/password/reset", "/api/email": return .mail
            case "/password-reset": return method == "POST" ? .mail : nil
            case "/.well-known/openid-configuration", "/.well-known/oauth-authorization-server", "/jwks": return .discovery
            case "/register", "/register/{client_id}": return .registration
            default: return nil
            }
        }
    }

    /// At most `requests` per `window` seconds.
    public struct Limit: Sendable, Equatable {
        public var requests: Int
        public var window: TimeInterval

        public init(_ requests: Int, per window: TimeInterval) {
            self.requests = requests
            self.window = window
        }
    }

    /// Per client address and class.
    public var perAddress: [EndpointClass: Limit]
    /// Per client id and class (the classes whose requests name a client: token, sign-in).
    public var perClient: [EndpointClass: Limit]
    /// Keys remembered in memory at most; past it the oldest windows are dropped first, so a
    /// flood of distinct addresses cannot exhaust memory.
    public var maximumTrackedKeys: Int

    public init(
        perAddress: [EndpointClass: Limit] = RateLimitPolicy.defaultPerAddress,
        perClient: [EndpointClass: Limit] = RateLimitPolicy.defaultPerClient,
        maximumTrackedKeys: Int = 100_000
    ) {
        self.perAddress = perAddress
        self.perClient = perClient
        self.maximumTrackedKeys = maximumTrackedKeys
    }

    /// Per address: 600 token requests a minute (a NAT full of apps refreshing), 120 sign-in
    /// steps a minute, 20 accounts an hour, 60 mail requests an hour, 1,200 discovery fetches a
    /// minute, 20 client registration requests an hour.
    public static let defaultPerAddress: [EndpointClass: Limit] = [
        .token: Limit(600, per: 60), .signIn: Limit(120, per: 60), .accountCreation: Limit(20, per: 3600),
        .mail: Limit(60, per: 3600), .discovery: Limit(1200, per: 60), .registration: Limit(20, per: 3600),
    ]

    /// Per client: 6,000 token requests and 3,000 sign-in steps a minute.
    public static let defaultPerClient: [EndpointClass: Limit] = [
        .token: Limit(6000, per: 60), .signIn: Limit(3000, per: 60),
    ]

    /// No limits at all.
    public static let off = RateLimitPolicy(perAddress: [:], perClient: [:])
}
