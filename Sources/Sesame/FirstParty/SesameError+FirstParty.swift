import Foundation
import SesameProtocol

extension SesameError {
    /// After a wrong one-time code (`error_code` 2003): how many more codes the provider accepts
    /// before the sign-in must start again (`remaining_attempts`); `nil` when not reported.
    public var remainingAttempts: Int? { apiError?.remainingAttempts }

    /// The stable numeric code of the provider's API error (see ``APIErrorCode``), if any.
    public var apiErrorCode: APIErrorCode? { apiError?.code }
}
