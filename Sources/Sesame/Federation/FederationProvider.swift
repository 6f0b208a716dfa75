import Foundation

/// A social or vendor sign-in SDK the app embeds (Sign in with Apple, Google, a vendor's own
/// account system), as a delegate Sesame drives (docs/federation.md): it signs the user in
/// there and hands over the provider's ID token; Sesame exchanges it for its own session. The
/// provider's own session stays in the provider's SDK, never in Sesame's store.
public protocol FederationProvider: Sendable {
    /// The name the server knows the provider by (`sesame provider add NAME`).
    var name: String { get }
    /// Signs the user in at the provider (showing its UI if needed), with `nonce` bound into
    /// the ID token (Apple: hashed). Throws ``SesameError/Code-swift.struct/cancelled`` when the user cancels.
    func signIn(nonce: String) async throws(SesameError) -> FederationCredential
    /// A fresh ID token without UI, or `nil` when the provider needs the user again.
    func silentRefresh(nonce: String) async -> FederationCredential?
    /// Ends the provider's own session (called by ``SesameClient/logout(_:revoke:)`` when asked).
    func signOut() async
}

/// What a ``FederationProvider`` hands over: the provider's ID token.
public struct FederationCredential: Sendable, Equatable {
    /// The provider's ID token as a compact JWS, unverified here: the server validates it.
    public var idToken: String

    /// Wraps the ID token a provider's SDK returned.
    public init(idToken: String) {
        self.idToken = idToken
    }
}
