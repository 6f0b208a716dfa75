import Foundation
import SesameProtocol
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An RFC 9470 §3 step-up challenge: `WWW-Authenticate: Bearer
/// error="insufficient_user_authentication"`, optionally with `acr_values` and `max_age`.
struct StepUpChallenge {
    let apiError: APIError

    init?(_ response: HTTPURLResponse) {
        guard let header = response.value(forHTTPHeaderField: "WWW-Authenticate"),
            header.contains("insufficient_user_authentication")
        else { return nil }
        apiError = APIError(
            error: "insufficient_user_authentication",
            errorDescription: "the resource requires a stronger or more recent authentication: \(header)")
    }
}
