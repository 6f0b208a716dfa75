/// Why a refresh-token family was revoked, kept with the revocation so that a later request
/// with one of its tokens can say what happened instead of a bare "already used".
public enum RefreshFamilyRevocationReason: String, Sendable, Equatable {
    /// A rotated token was presented again (RFC 9700 §4.14.2: reuse detection).
    case reused = "reused"
    /// A token was presented by a client it was not issued to: it leaked (RFC 6749 §10.4).
    case presentedByAnotherClient = "presented_by_another_client"
    /// The client revoked it (RFC 7009), or an authorization code was replayed.
    case revoked = "revoked"
    /// Sign-out, account or client removal, password reset.
    case signedOut = "signed_out"
    /// "Sign out everywhere": the Native SSO device session it belonged to was ended, by this
    /// app or by a sibling app of the same vendor (``DeviceSessionStore``).
    case signedOutEverywhere = "signed_out_everywhere"
}
