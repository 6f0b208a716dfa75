import SesameProtocol

/// The routes a browser navigates to or submits a form to: their answers are read by a person,
/// so a failure that happens before the page's own code runs (a rate limit, the data store
/// down) is the localized HTML error page, not the JSON error (``HostedPageErrorMiddleware``). The routes a page's script calls with `fetch` (passkey options)
/// stay JSON.
enum HostedPageRoutes {
    /// The server's home page (``PageRenderer/home(locales:)``).
    static let home = "/"
    /// Where a federation provider sends the browser back (``FederationBrokerEndpoint``).
    static let federationCallback = "/federation/callback"

    static let patterns: Set<String> = [
        home, "/authorize", "/login", "/signup", "/verify-email", "/password-reset", "/password-reset/confirm", "/logout",
        "/account/passkeys", "/federation/start", federationCallback, "/device", "/device/callback", "/device/decision",
    ]

    /// Whether `route` (the router's pattern, `context.endpointPath`) is a hosted page.
    static func contains(_ route: String?) -> Bool {
        guard let route else { return false }
        return patterns.contains(route)
    }

    /// The failures a hosted page shows as HTML (``HostedPageErrorMiddleware``).
    static func showsAsPage(_ code: APIErrorCode) -> Bool {
        switch code {
        case .rateLimited, .temporarilyUnavailable: true
        default: false
        }
    }
}
