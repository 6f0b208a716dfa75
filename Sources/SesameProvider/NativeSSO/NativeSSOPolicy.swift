import Foundation
import SesameStore

/// The operator's settings for single sign-on across a vendor's apps (docs/native-sso.md).
public struct NativeSSOPolicy: Sendable, Equatable {
    /// The absolute lifetime of a device session: no app's refresh token issued in it outlives
    /// it (Native SSO 1.0 §4.3). Default 90 days.
    public var deviceSessionLifetime: TimeInterval
    /// How long after its `exp` a sibling app's ID token is still accepted as the subject of
    /// an exchange (§6.3: "the id_token ... may be expired"). The device secret is the
    /// credential and the session is checked live; the grace only bounds how old the copy of
    /// the ID token may be. Every refresh of any app of the group writes a fresh one. Default
    /// 24 hours.
    public var idTokenGrace: TimeInterval

    public init(deviceSessionLifetime: TimeInterval = 90 * 86_400, idTokenGrace: TimeInterval = 86_400) {
        self.deviceSessionLifetime = deviceSessionLifetime
        self.idTokenGrace = idTokenGrace
    }
}
