import Foundation

/// Loopback host names, where plain http is allowed for development (RFC 8252 §7.3, §8.3):
/// `localhost`, `127.0.0.0/8` and `::1`, without regard to case or IPv6 brackets. One rule for
/// the SDK's configuration, the resource server's metadata and the server's SMTP settings.
package enum LoopbackHost {
    package static func contains(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127.")
    }
}
