import Foundation

/// A plain-text email in RFC 5322 format with the MIME headers of RFC 2045/2047, ready for the
/// SMTP `DATA` command (RFC 5321 §4.1.1.4, dot-stuffed per §4.5.2).
struct MailMessage: Sendable {
    var from: String
    var to: String
    var subject: String
    var body: String
    var date: Date
    /// RFC 5322 §3.6.4 `msg-id` without the angle brackets.
    var messageID: String

    /// RFC 5322 §2.1.1: lines must not exceed 998 octets before the CRLF.
    static let maximumLineOctets = 998

    /// How the body travels (RFC 2045 §6).
    enum TransferEncoding: String, Sendable {
        case sevenBit = "7bit"
        /// Needs the relay's `8BITMIME` (RFC 6152).
        case eightBit = "8bit"
        case base64
    }

    /// The encoding for this body: 7bit for ASCII, 8bit when the relay accepts it, else base64;
    /// base64 as well when a line is too long.
    func transferEncoding(relaySupports8BitMIME: Bool) -> TransferEncoding {
        let lines = Self.lines(of: body)
        guard lines.allSatisfy({ $0.utf8.count <= Self.maximumLineOctets }) else { return .base64 }
        if body.utf8.allSatisfy({ $0 < 0x80 }) { return .sevenBit }
        return relaySupports8BitMIME ? .eightBit : .base64
    }

    /// Header and body with CRLF line ends, ending in CRLF, not yet dot-stuffed.
    func rendered(encoding: TransferEncoding) -> String {
        let headers = [
            "Date: \(Self.rfc5322Date(date))",
            "From: <\(from)>",
            "To: <\(to)>",
            "Subject: \(Self.encodedHeaderText(subject))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: \(encoding.rawValue)",
        ]
        let bodyLines: [String]
        switch encoding {
        case .sevenBit, .eightBit:
            bodyLines = Self.lines(of: body)
        case .base64:
            let encoded = Data(Self.lines(of: body).joined(separator: "\r\n").utf8).base64EncodedString()
            bodyLines = stride(from: 0, to: encoded.count, by: 76).map { offset in
                let start = encoded.index(encoded.startIndex, offsetBy: offset)
                let end = encoded.index(start, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
                return String(encoded[start..<end])
            }
        }
        return (headers + [""] + bodyLines).joined(separator: "\r\n") + "\r\n"
    }

    /// RFC 5321 §4.5.2 transparency: a line starting with "." gets one more.
    static func dotStuffed(_ text: String) -> String {
        let stuffed = text.components(separatedBy: "\r\n").map { $0.hasPrefix(".") ? "." + $0 : $0 }
        return stuffed.joined(separator: "\r\n")
    }

    /// The body's lines, whatever line ends it used (CRLF, LF or CR).
    static func lines(of text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .components(separatedBy: "\n")
    }

    /// RFC 5322 §3.3 date-time in UTC, e.g. `Tue, 01 Jul 2025 12:00:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// Header text: as is when printable ASCII, else RFC 2047 `=?UTF-8?B?...?=` encoded-words
    /// (each ≤ 75 characters, folded onto continuation lines). Line breaks become spaces, so a
    /// subject can never add a header.
    static func encodedHeaderText(_ text: String) -> String {
        let flat = text.components(separatedBy: .newlines).joined(separator: " ")
        if flat.unicodeScalars.allSatisfy({ (0x20..<0x7F).contains($0.value) }), flat.utf8.count <= 900 {
            return flat
        }
        var words: [String] = []
        var chunk = ""
        for character in flat {
            if chunk.utf8.count + String(character).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }
}
