/// Why a refresh-token family was revoked, kept with the revocation so that a later request
/// with one of its tokens can say what happened instead of a bare "already used", and so that
/// only a rotated token presented again is audited as reuse (RFC 9700 §4.14.2).
public enum RefreshFamilyRevocationReason: String, Sendable, Equatable, CaseIterable {
    /// A rotated token was presented again (RFC 9700 §4.14.2: reuse detection).
    case reused = "reused"
    /// A token was presented by a client it was not issued to: it leaked (RFC 6749 §10.4).
    case presentedByAnotherClient = "presented_by_another_client"
    /// The client revoked it (RFC 7009).
    case revoked = "revoked"
    /// The authorization code the family came from was presented a second time (RFC 6749
    /// §4.1.2, RFC 9700 §4.2.4): the tokens issued from it are revoked.
    case codeReplayed = "code_replayed"
    /// Sign-out (RP-Initiated Logout, the account's devices page), account or client removal.
    case signedOut = "signed_out"
    /// "Sign out everywhere": the Native SSO device session it belonged to was ended, by this
    /// app or by a sibling app of the same vendor (``DeviceSessionStore``).
    case signedOutEverywhere = "signed_out_everywhere"
    /// The password was changed or reset, which ends the user's other sessions.
    case credentialsChanged = "credentials_changed"
    /// The PIN registration the family belonged to was revoked after too many wrong PINs.
    case pinLocked = "pin_locked"
    /// The user removed the PIN registration the family belonged to.
    case pinRemoved = "pin_removed"
    /// The user had more live sessions than the server keeps; the least recently used was
    /// closed (``SessionLimits``).
    case evicted = "evicted"
    /// An administrator ended the session, or disabled the account (issue #47).
    case administrator = "administrator"
}

