import Foundation
import SesameProtocol

extension SesameError {
    /// After a wrong one-time code (`error_code` 2003): how many more codes the provider accepts
    /// before the sign-in must start again (`remaining_attempts`); `nil` when not reported.
    public var remainingAttempts: Int? { apiError?.remainingAttempts }

    /// After HTTP 429 `too_many_attempts` (`error_code` 2009, too many wrong passwords): seconds
    /// to wait before trying again (`retry_after`, the server's `Retry-After`); `nil` otherwise.
    public var retryAfter: Int? { apiError?.retryAfter }

    /// The stable numeric code of the provider's API error (docs/errors.md), if any: the
    /// server's reason, finer than ``code``.
    public var apiErrorCode: APIErrorCode? { apiError?.code }
}
