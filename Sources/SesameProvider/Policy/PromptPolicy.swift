import Foundation
import SesameStore

/// OIDC Core §3.1.2.1 `prompt` and `max_age`: decides whether an existing browser session may
/// be used or the login form must be shown.
///
/// `consent` and `select_account` are accepted and ignored: Sesame serves first-party clients
/// only, so there is no consent screen, and a browser holds one session at a time.
/// `none` cannot be combined with another value; unknown values are `invalid_request`.
package struct PromptPolicy: Sendable, Equatable {
    package static let knownValues: Set<String> = ["none", "login", "consent", "select_account"]

    package var values: Set<String>
    /// Seconds; `0` means "always authenticate again".
    package var maxAge: Int?

    package init(values: Set<String>, maxAge: Int? = nil) {
        self.values = values
        self.maxAge = maxAge
    }

    package var isNone: Bool { values.contains("none") }
    package var forcesLogin: Bool { values.contains("login") }

    package enum Decision: Equatable {
        /// The session's authentication satisfies the request.
        case useSession
        /// Show the login form.
        case showLogin
        /// `prompt=none` cannot be satisfied: answer `login_required`.
        case loginRequired
    }

    /// What to do given the session's `auth_time` (or no session).
    package func decide(sessionAuthTime: Date?, now: Date) -> Decision {
        let sessionIsFresh: Bool
        if let authTime = sessionAuthTime {
            if let maxAge {
                sessionIsFresh = now.timeIntervalSince(authTime) <= TimeInterval(maxAge) && maxAge > 0
            } else {
                sessionIsFresh = true
            }
        } else {
            sessionIsFresh = false
        }
        if isNone { return sessionIsFresh ? .useSession : .loginRequired }
        if forcesLogin || !sessionIsFresh { return .showLogin }
        return .useSession
    }
}
