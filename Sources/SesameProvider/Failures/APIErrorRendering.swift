import SesameProtocol
import SesameStore

/// An error that becomes an ``APIError`` body: the members every error body has (``failure``)
/// and the error's own members (``decorate(_:)``), so a feature's fields (e.g. a passkey
/// ceremony's `ceremony_step`, the first-party continuation's `auth_session`) live with the
/// feature. The server's HTTP layer renders it; the provider's logic only throws it.
package protocol APIErrorRendering: Error, Sendable {
    /// The members every error body has.
    var failure: ProviderFailure { get set }
    /// Adds this error's own members to the body, after the common ones.
    func decorate(_ body: inout APIError)
}
