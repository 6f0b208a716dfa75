import Foundation
import Logging

extension ServerConfiguration {
    /// The sender the server uses: ``messageSender`` when set, else an ``SMTPMessageSender``
    /// when ``smtp`` is configured, else the embedded ``OutboxMessageSender``; the outbox seals
    /// what messages say with the master key at rest (``OutboxSealing``).
    func resolvedMessageSender(store: any AccountStore, keyRing: KeyRing, logger: Logger) throws -> any MessageSender {
        if let messageSender { return messageSender }
        let outbox = OutboxMessageSender(store: store, keyRing: keyRing)
        guard let smtp else { return outbox }
        do {
            try smtp.validate()
        } catch {
            throw ServerStartError.invalidSMTPConfiguration(error.description)
        }
        if !smtp.isLoopback {
            logger.warning(
                "email to the SMTP relay travels unencrypted (no TLS in this build); prefer a relay on 127.0.0.1",
                metadata: ["smtp_host": .string(smtp.host)])
        }
        return SMTPMessageSender(configuration: smtp, outbox: outbox, logger: logger, now: now)
    }
}
