/// Where RP-Initiated Logout 1.0 may send the browser after logout: a `post_logout_redirect_uri`
/// is honoured only when it exactly matches one registered for the client (§3), and the client
/// must be known, from the `id_token_hint`'s audience or from `client_id` (§2). An OP that cannot
/// honour it must not redirect (§3); ``EndSessionEndpoint`` then shows an error page and keeps
/// the session.
enum PostLogoutRedirect {
    /// The URI to redirect to, `nil` when none was asked for; throws when one was asked for but
    /// cannot be honoured.
    static func resolve(
        _ target: String?, clientID: String?, store: any IdentityStore
    ) async throws -> String? {
        guard let target else { return nil }
        guard let clientID else { throw PostLogoutRedirectRefusal.unidentifiedClient }
        guard let client = try await store.client(id: clientID),
            client.postLogoutRedirectURIs.contains(target)
        else { throw PostLogoutRedirectRefusal.unregistered(clientID: clientID) }
        return target
    }
}

/// Why a `post_logout_redirect_uri` cannot be honoured (RP-Initiated Logout 1.0 §3).
enum PostLogoutRedirectRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither `id_token_hint` nor `client_id` says which client asks (§2).
    case unidentifiedClient
    /// The client is unknown, or the URI is not one of its registered post-logout redirect URIs.
    case unregistered(clientID: String)

    /// The localized explanation shown on the error page (``LogoutStrings``).
    var messageKey: String {
        switch self {
        case .unidentifiedClient: "logout.redirect_unidentified"
        case .unregistered: "logout.redirect_unregistered"
        }
    }

    var description: String {
        switch self {
        case .unidentifiedClient:
            "post_logout_redirect_uri needs id_token_hint or client_id to identify the client; the session was kept."
        case .unregistered(let clientID):
            "post_logout_redirect_uri is not registered for client \(clientID); the session was kept."
        }
    }
}
