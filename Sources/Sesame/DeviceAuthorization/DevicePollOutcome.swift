import Foundation
import SesameProtocol

/// What one poll of the token endpoint with the `device_code` answered (RFC 8628 §3.5).
enum DevicePollOutcome: Sendable {
    /// `authorization_pending`: the user has not decided yet; poll again after the interval.
    case pending
    /// `slow_down`: poll again, with the interval 5 seconds longer from now on.
    case slowDown
    /// `access_denied`: the user denied the request; stop.
    case denied
    /// `expired_token`: the codes expired; stop (a new flow needs new codes).
    case expired
    /// The tokens (RFC 6749 §5.1), for the same checks as after a code exchange.
    case tokens(TokenResponse)

    /// The outcome a refusal of the token endpoint stands for, or `nil` when it is an error the
    /// app must see (`invalid_grant`, `invalid_client`, a server error, ...). The RFC 8628 §3.5
    /// codes come with HTTP 400 (RFC 6749 §5.2); any 4xx is read by its `error` alone. A server's
    /// rate limit on the token endpoint (HTTP 429) slows the polling down too: the request is
    /// still pending.
    init?(refusal error: SesameError) {
        guard let status = error.httpStatus, (400..<500).contains(status), let apiError = error.apiError else {
            return nil
        }
        if status == 429, apiError.code != .proofOfWorkRequired, apiError.code != .invalidChallengeSolution {
            self = .slowDown
            return
        }
        switch apiError.error {
        case APIErrorCode.authorizationPending.error: self = .pending
        case APIErrorCode.slowDown.error: self = .slowDown
        case APIErrorCode.deviceAccessDenied.error: self = .denied
        case APIErrorCode.expiredToken.error: self = .expired
        default: return nil
        }
    }
}
