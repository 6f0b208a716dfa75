import SesameProtocol
import SesameStore
import Foundation

/// A configured SMTP relay (RFC 5321) that ``SMTPMessageSender`` hands email to.
///
/// Sesame speaks plain SMTP: there is no TLS in this build. Credentials (AUTH PLAIN or LOGIN,
/// RFC 4954) are therefore only sent to a relay on the loopback interface, e.g. a local
/// Postfix or a sidecar that relays onward over TLS; ``validate()`` refuses anything else.
public struct SMTPConfiguration: Sendable, Equatable {
    /// RFC 4954 SASL mechanisms Sesame can use.
    public enum AuthMethod: String, Sendable, Equatable {
        /// RFC 4616: one `AUTH PLAIN` line.
        case plain = "PLAIN"
        /// The widespread `AUTH LOGIN` exchange (draft-murchison-sasl-login).
        case login = "LOGIN"
    }

    public var host: String
    public var port: Int
    /// The envelope sender and `From:` address, e.g. `no-reply@example.com`.
    public var from: String
    public var username: String?
    /// Never from a command-line flag (`sesame serve` reads `SESAME_SMTP_PASSWORD`).
    public var password: String?
    /// `nil`: PLAIN if the relay offers it, else LOGIN.
    public var authMethod: AuthMethod?
    /// The EHLO name (RFC 5321 §4.1.1.1); default: the domain of ``from``.
    public var heloName: String?
    /// Seconds to wait for the connection and for each reply.
    public var timeout: TimeInterval

    public init(
        host: String = "127.0.0.1", port: Int = 25, from: String, username: String? = nil,
        password: String? = nil, authMethod: AuthMethod? = nil, heloName: String? = nil,
        timeout: TimeInterval = 30
    ) {
        self.host = host
        self.port = port
        self.from = from
        self.username = username
        self.password = password
        self.authMethod = authMethod
        self.heloName = heloName
        self.timeout = timeout
    }

    /// `true` for `localhost`, `127.0.0.0/8` and `::1`.
    public var isLoopback: Bool { LoopbackHost.contains(host) }

    /// The EHLO argument.
    package var effectiveHeloName: String {
        heloName ?? from.split(separator: "@").last.map(String.init) ?? "localhost"
    }

    /// Checks the settings; the error says what to change.
    public func validate() throws(SMTPConfigurationError) {
        guard !host.isEmpty else { throw .invalid("the SMTP host is empty; pass --smtp-host") }
        guard (1...65535).contains(port) else { throw .invalid("the SMTP port \(port) is not 1-65535; pass --smtp-port") }
        guard SMTPAddress.isValid(from) else {
            throw .invalid("the SMTP sender '\(from)' is not an email address; pass --smtp-from name@example.com")
        }
        if (username == nil) != (password == nil) {
            throw .invalid(
                "SMTP authentication needs both a username (--smtp-username) and a password (SESAME_SMTP_PASSWORD)")
        }
        if username != nil, !isLoopback {
            throw .invalid(
                "SMTP credentials would travel unencrypted to \(host); Sesame has no TLS, so run a local relay (e.g. Postfix on 127.0.0.1) that forwards over TLS and point --smtp-host at it")
        }
    }
}

/// Invalid ``SMTPConfiguration``.
public enum SMTPConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let reason): reason
        }
    }
}

/// RFC 5321 §4.1.2 mailbox checks for the envelope, strict enough that an address can never
/// break out of an SMTP command line or a header (no CR, LF, `<`, `>`, spaces, controls).
package enum SMTPAddress {
    package static func isValid(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, address.utf8.count <= 254 else {
            return false
        }
        return !address.unicodeScalars.contains {
            $0.value < 0x21 || $0.value == 0x7F || $0 == "<" || $0 == ">" || $0 == "," || $0 == ";"
        }
    }
}
