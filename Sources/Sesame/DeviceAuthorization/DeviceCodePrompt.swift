import Foundation
import SesameProtocol

/// What a device without a browser shows while the user approves its sign-in on another device
/// (RFC 8628 §3.3): the user code, the page to type it on, and the same page with the code filled
/// in for a QR code or a link (§3.3.1).
///
/// Show ``userCode`` and ``verificationURI`` together ("Go to id.example.com/device and enter
/// BDFH-JKLM"); where the screen can draw one, add a QR code of ``verificationURIComplete``
/// (the user still confirms the code on the page, §5.4). Take the prompt down at ``expiresAt``:
/// the codes no longer work then.
public struct DeviceCodePrompt: Sendable, Equatable {
    /// The end-user verification code (§3.2 `user_code`), formatted for reading: a Sesame code as
    /// `BDFH-JKLM` (§6.1), another provider's code as it sent it.
    public var userCode: String
    /// The page where the user types the code (§3.2 `verification_uri`), short enough to type.
    public var verificationURI: URL
    /// The page with the code filled in (§3.2 `verification_uri_complete`), the payload of a QR
    /// code (§3.3.1); `nil` when the provider sent none.
    public var verificationURIComplete: URL?
    /// When the codes expire (§3.2 `expires_in`, clamped to at most one hour): after that the
    /// sign-in ends with ``DeviceSignIn/State/expired``.
    public var expiresAt: Date

    /// The URI to show as a QR code or open as a link: ``verificationURIComplete`` when the
    /// provider sent one, else ``verificationURI`` (§3.3.1).
    public var qrCodeURI: URL { verificationURIComplete ?? verificationURI }

    /// A prompt with every member given; the SDK makes these itself, apps need this only for
    /// tests and previews.
    public init(userCode: String, verificationURI: URL, verificationURIComplete: URL?, expiresAt: Date) {
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresAt = expiresAt
    }
}
