import Foundation

/// One message to one recipient. `body` is already localized and contains the code; it is
/// never logged.
public struct OutboundMessage: Codable, Sendable, Equatable {
    public enum Channel: String, Codable, Sendable { case email, sms }

    public var channel: Channel
    /// Email address or E.164 phone number.
    public var to: String
    /// Email subject; `nil` for SMS.
    public var subject: String?
    public var body: String
    /// Why it was sent, e.g. `email_verification`, `password_reset`, `mfa_code`, `email_change`.
    public var purpose: String
    public var createdAt: Date

    public init(
        channel: Channel, to: String, subject: String? = nil, body: String, purpose: String,
        createdAt: Date = Date()
    ) {
        self.channel = channel
        self.to = to
        self.subject = subject
        self.body = body
        self.purpose = purpose
        self.createdAt = createdAt
    }
}
