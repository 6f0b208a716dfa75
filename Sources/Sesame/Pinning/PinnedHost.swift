import Foundation

/// The pins of one host (``SesameConfiguration/pinning``): a connection to it is trusted only if
/// the system trusts the certificate **and** one certificate of the verified chain has a public
/// key among ``pins``.
///
/// JSON form (snake_case, in the configuration file's `pinning` array):
/// ```json
/// { "host": "id.example.com", "include_subdomains": false, "expires": "2027-06-30",
///   "pins": ["sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",
///            "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="] }
/// ```
public struct PinnedHost: Sendable, Equatable, Codable {
    /// The host name, as in the request URL (no scheme, port or path), compared without regard to case.
    public var host: String
    /// At least two: the key in use and a backup key not yet deployed (RFC 7469 §4.3), so a
    /// lost or compromised key can be replaced without shipping a new app first.
    public var pins: [PublicKeyPin]
    /// Whether subdomains of ``host`` are pinned too (`api.id.example.com` under `id.example.com`).
    public var includeSubdomains: Bool
    /// After this moment the pins are ignored and the system's trust alone decides, so an app
    /// nobody updates does not lock itself out when the server's keys change. `nil`: no expiry.
    public var expires: Date?

    /// The pins of `host` (and its subdomains when `includeSubdomains`), ignored after `expires`.
    public init(host: String, pins: [PublicKeyPin], includeSubdomains: Bool = false, expires: Date? = nil) {
        self.host = host
        self.pins = pins
        self.includeSubdomains = includeSubdomains
        self.expires = expires
    }

    enum CodingKeys: String, CodingKey {
        case host, pins, expires
        case includeSubdomains = "include_subdomains"
    }

    /// Decodes the JSON form described above; `expires` is a date (`2027-06-30`, the end of that
    /// day in UTC, as Android's `<pin-set expiration>`) or an RFC 3339 time (`2027-06-30T12:00:00Z`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        host = try c.decode(String.self, forKey: .host)
        pins = try c.decode([PublicKeyPin].self, forKey: .pins)
        includeSubdomains = try c.decodeIfPresent(Bool.self, forKey: .includeSubdomains) ?? false
        if let text = try c.decodeIfPresent(String.self, forKey: .expires) {
            guard let date = Self.parseExpiry(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .expires, in: c,
                    debugDescription: "expires \"\(text.prefix(40))\" is neither a date (2027-06-30) nor an RFC 3339 time")
            }
            expires = date
        } else {
            expires = nil
        }
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(host, forKey: .host)
        try c.encode(pins, forKey: .pins)
        try c.encode(includeSubdomains, forKey: .includeSubdomains)
        if let expires { try c.encode(ISO8601DateFormatter().string(from: expires), forKey: .expires) }
    }

    static func parseExpiry(_ text: String) -> Date? {
        if let time = ISO8601DateFormatter().date(from: text) { return time }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        // The whole day counts: the pins are ignored from the next midnight (UTC) on.
        return day.date(from: text).map { $0.addingTimeInterval(86_400) }
    }

    /// Whether this entry covers `host` (already lowercased).
    func covers(_ host: String) -> Bool {
        let own = self.host.lowercased()
        return host == own || (includeSubdomains && host.hasSuffix("." + own))
    }

    /// The rules a usable entry meets; the error names the host and the rule.
    func validate() throws(SesameError) {
        let name = host.lowercased()
        guard !name.isEmpty, name.count <= 253,
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" }),
            !name.hasPrefix("."), !name.hasSuffix(".")
        else {
            throw .invalidConfiguration(
                "pinning host \"\(host.prefix(80))\" is not a host name; write the name alone (id.example.com), without scheme, port or path.")
        }
        guard Set(pins).count >= 2 else {
            throw .invalidConfiguration(
                "pinning for \(host) needs at least two different pins: the key in use and a backup key not yet in use (RFC 7469 §4.3), so the server can change keys without locking the app out.")
        }
    }
}
