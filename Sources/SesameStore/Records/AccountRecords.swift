import Foundation

/// A pending one-time code (email verification, password reset, email change), stored only as
/// a ``SecretDigest``. One per user and purpose.
public struct VerificationCodeRecord: Sendable, Codable, Equatable {
    public var userID: String
    /// `email_verification`, `password_reset` or `email_change` (``VerificationPurpose``).
    public var purpose: String
    public var codeDigest: String
    /// Where the code was sent; for `email_change` the address the change switches to.
    public var target: String
    /// Answers counted so far (right or wrong).
    public var attempts: Int
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        userID: String, purpose: String, codeDigest: String, target: String, attempts: Int = 0,
        createdAt: Date, expiresAt: Date
    ) {
        self.userID = userID
        self.purpose = purpose
        self.codeDigest = codeDigest
        self.target = target
        self.attempts = attempts
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// One message in the outbox.
public struct OutboxEntry: Sendable, Codable, Equatable {
    public var id: Int64
    public var message: OutboundMessage
    /// When a relay (SMTP) accepted it; `nil` while it waits in the outbox. The body of a
    /// delivered message is erased.
    public var deliveredAt: Date?

    public init(id: Int64, message: OutboundMessage, deliveredAt: Date? = nil) {
        self.id = id
        self.message = message
        self.deliveredAt = deliveredAt
    }
}
