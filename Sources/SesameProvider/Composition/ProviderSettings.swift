import Foundation

/// What an operator decides about the identity core (`sesame serve`'s options, the
/// configuration file): lifetimes and policies, each with the default a deployment starts with.
/// ``Provider`` builds its parts from them once.
package struct ProviderSettings: Sendable {
    /// The issuer URL (`iss`), exactly as discovery publishes it.
    package var issuer: URL
    /// RFC 6749 §4.1.2: at most 10 minutes is RECOMMENDED; Sesame uses 60 seconds.
    package var authorizationCodeLifetime: TimeInterval = 60
    /// The browser SSO session behind the session cookie.
    package var browserSessionLifetime: TimeInterval = 12 * 3600
    /// How long an authorization request waits for the user (``PendingAuthorizations``).
    package var signInTimeout: TimeInterval = PendingAuthorizations.defaultLifetime
    /// Every client must push its authorization requests (RFC 9126 §5).
    package var requirePushedRequests = false
    package var sessionLimits = SessionLimits()
    package var nativeSSO = NativeSSOPolicy()
    package var passkeys = PasskeyPolicy()
    package var deviceAuthorization = DeviceAuthorizationPolicy()
    package var dpop = DPoPPolicy()
    package var loginThrottle = LoginThrottlePolicy()
    package var mailQuota = MailQuota.Policy()
    /// Dynamic client registration (RFC 7591), off unless the operator opens it.
    package var registration = ClientRegistrationPolicy()

    package init(issuer: URL) {
        self.issuer = issuer
    }

    /// The `iss` string: the issuer URL without a trailing slash.
    package var issuerIdentifier: String {
        var text = issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
