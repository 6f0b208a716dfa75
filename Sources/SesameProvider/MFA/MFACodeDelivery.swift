import Foundation
import SesameProtocol
import SesameStore

/// Sends one-time codes by email or SMS through the server's ``MessageSender``, in the user's
/// language: `message.mfa_code.subject` / `.body` for email, `message.mfa_code.sms` for SMS,
/// with `{code}` replaced. The code exists in clear only in the message; it is never logged.
package struct MFACodeDelivery: Sendable {
    let messageSender: any MessageSender
    let localizer: any Localizer
    let now: @Sendable () -> Date

    package init(messageSender: any MessageSender, localizer: any Localizer, now: @escaping @Sendable () -> Date) {
        self.messageSender = messageSender
        self.localizer = localizer
        self.now = now
    }

    /// Purpose recorded on every MFA message (`OutboundMessage.purpose`).
    package static let purpose = "mfa_code"

    package func send(_ code: String, channel: OutboundMessage.Channel, to recipient: String, locales: [String]) async throws {
        let t = { (key: String) in
            localizer.string(key, locales: locales, arguments: ["code": code])
        }
        let message =
            switch channel {
            case .email:
                OutboundMessage(
                    channel: .email, to: recipient, subject: t("message.mfa_code.subject"),
                    body: t("message.mfa_code.body"), purpose: Self.purpose, createdAt: now())
            case .sms:
                OutboundMessage(
                    channel: .sms, to: recipient, body: t("message.mfa_code.sms"), purpose: Self.purpose,
                    createdAt: now())
            }
        try await messageSender.send(message)
    }
}
