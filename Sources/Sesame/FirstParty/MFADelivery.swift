import SesameProtocol

/// Where a one-time code went after ``MFAChallenge/start(_:)``.
public struct MFADelivery: Sendable, Equatable {
    /// The method chosen.
    public var method: MFAMethod
    /// The provider's developer-facing text saying where the code went, with the address masked
    /// (e.g. "A code was sent to a***@example.com."); `nil` for TOTP, where nothing is sent and
    /// the user reads the code from the authenticator app.
    public var destination: String?
    /// The same, localized for the user (`error_user_msg`), when the provider sent it.
    public var userMessage: String?

    /// Builds a delivery; the SDK makes these from the provider's answer, apps need this only for test doubles.
    public init(method: MFAMethod, destination: String? = nil, userMessage: String? = nil) {
        self.method = method
        self.destination = destination
        self.userMessage = userMessage
    }
}
