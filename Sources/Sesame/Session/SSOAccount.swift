import Foundation

/// An account a sibling app of the same vendor signed in on this device, offered on a
/// "Continue as …" screen (``SesameClient/SingleSignOn/accounts()``). Only what the screen needs: the
/// device secret and the ID token stay in the shared group.
public struct SSOAccount: Sendable, Equatable, Identifiable {
    /// The ``Account/id`` the sign-in will have (same issuer and subject).
    public var id: String
    /// The `iss` of the shared session's ID token: this app's provider (others are not listed).
    public var issuer: String
    /// The `sub` of the shared session's ID token.
    public var subject: String
    /// The name to show, from the sharing app's account or its UserInfo; `nil` when unknown.
    public var displayName: String?
    /// The email to show, from the sharing app's account or its UserInfo; `nil` when unknown.
    public var email: String?
    /// The client id of the app that last wrote the entry.
    public var sharedBy: String
    /// When the entry was last written (a sign-in or refresh of any app of the group).
    public var updatedAt: Date

    /// A label for the button: the name, else the email, else the subject.
    public var label: String { displayName ?? email ?? subject }
}
