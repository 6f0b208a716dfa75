import Foundation
import SesameProtocol

/// The `resource` parameter of RFC 8707 §2: each value an absolute URI without a fragment,
/// naming an API the access token is for. A request may repeat it; the form decoder joins
/// the values with a space (``RecognizedParameters/repeatable``), which no URI contains.
package enum ResourceIndicator {
    /// The longest identifier accepted (an API's URL).
    package static let maxLength = 512
    /// The most resources one request may name.
    package static let maxCount = 10

    /// The identifiers `value` names, in order, without repeats; empty when it names none.
    /// Throws `invalid_target` (RFC 8707 §2) for a value that is not an absolute URI, has a
    /// fragment, is too long, or for more than ``maxCount`` values.
    package static func parse(_ value: String?) throws(ProviderFailure) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        var identifiers: [String] = []
        for part in value.split(separator: " ") {
            let identifier = String(part)
            if let problem = problem(identifier) {
                throw ProviderFailure(.invalidTarget, "resource \(Self.quoted(identifier)) \(problem) (RFC 8707 section 2).")
            }
            if !identifiers.contains(identifier) { identifiers.append(identifier) }
        }
        guard identifiers.count <= maxCount else {
            throw ProviderFailure(.invalidTarget, "Name at most \(maxCount) resources in one request.")
        }
        return identifiers
    }

    /// Why `identifier` cannot name an API, or `nil` when it can: it must be an absolute
    /// `https` URI (`http` only for a loopback host, for development), with a host, no fragment
    /// and no user information, at most ``maxLength`` characters.
    package static func problem(_ identifier: String) -> String? {
        guard identifier.utf8.count <= maxLength else { return "is longer than \(maxLength) characters" }
        guard identifier.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return "must be an absolute URI of printable ASCII characters"
        }
        guard !identifier.contains("#") else { return "must not have a fragment" }
        guard let components = URLComponents(string: identifier), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return "must be an absolute URI with a host" }
        guard components.user == nil, components.password == nil else { return "must not carry user information" }
        switch scheme {
        case "https": return nil
        case "http": return LoopbackHost.contains(host) ? nil : "must use https (http only on a loopback host)"
        default: return "must use https"
        }
    }

    /// `identifier` for a message: quoted, at most 100 characters.
    static func quoted(_ identifier: String) -> String {
        "'\(identifier.prefix(100))'"
    }
}
