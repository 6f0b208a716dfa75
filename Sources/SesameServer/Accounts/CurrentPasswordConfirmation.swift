import Foundation
import SesameProtocol

extension CredentialVerifier {
    /// The signed-in user's password confirming a sensitive change (docs/first-party-and-accounts.md:
    /// `POST /api/password`, `DELETE /api/account`). Counts against the user's sign-in throttle
    /// like any password check: wrong → `invalid_credentials` (2000) naming `field`; too many
    /// wrong answers → 429 `too_many_attempts` (2009) with `Retry-After`.
    func confirmCurrentPassword(
        _ password: String, field: String, of user: UserRecord, context: SesameRequestContext
    ) async throws {
        switch try await checkPassword(password, attempt: LoginAttempt(account: user, origin: RequestOrigin(context)), user: { user }) {
        case .accepted:
            return
        case .rejected:
            context.annotations.record(outcome: "invalid_credentials")
            throw EndpointFailure(.invalidCredentials, "\(field) is not the account's password.")
        case .throttled(let retryAfter):
            throw ProviderFailure.tooManyAttempts(retryAfter: retryAfter)
        case .disabled:
            throw ProviderFailure.accountDisabled
        }
    }
}
