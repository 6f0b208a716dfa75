/// Which certificate a `tls_client_auth` client must present (RFC 8705 §2.1.2): exactly one of
/// the subject distinguished name or one subject alternative name, as registered with the
/// client (`tls_client_auth_subject_dn`, `tls_client_auth_san_dns`, `_san_uri`, `_san_ip`,
/// `_san_email`). The certificate must also chain to a CA the server trusts for clients.
public enum TLSClientAuthSubject: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `tls_client_auth_subject_dn`: the subject DN in RFC 4514 string form
    /// (`CN=payments,O=Example Bank,C=GB`), compared attribute by attribute.
    case subjectDN(String)
    /// `tls_client_auth_san_dns`: a `dNSName` SAN entry.
    case dnsName(String)
    /// `tls_client_auth_san_uri`: a `uniformResourceIdentifier` SAN entry.
    case uri(String)
    /// `tls_client_auth_san_ip`: an `iPAddress` SAN entry (IPv4 dotted or IPv6 text form).
    case ipAddress(String)
    /// `tls_client_auth_san_email`: an `rfc822Name` SAN entry.
    case email(String)

    /// The RFC 8705 §2.1.2 client metadata name of this kind of subject.
    public var metadataName: String {
        switch self {
        case .subjectDN: "tls_client_auth_subject_dn"
        case .dnsName: "tls_client_auth_san_dns"
        case .uri: "tls_client_auth_san_uri"
        case .ipAddress: "tls_client_auth_san_ip"
        case .email: "tls_client_auth_san_email"
        }
    }

    /// The registered value.
    public var value: String {
        switch self {
        case .subjectDN(let value), .dnsName(let value), .uri(let value), .ipAddress(let value), .email(let value):
            value
        }
    }

    /// The subject named by the metadata member `name` (one of ``metadataName``'s values), or
    /// `nil` for another name.
    public init?(metadataName name: String, value: String) {
        switch name {
        case "tls_client_auth_subject_dn": self = .subjectDN(value)
        case "tls_client_auth_san_dns": self = .dnsName(value)
        case "tls_client_auth_san_uri": self = .uri(value)
        case "tls_client_auth_san_ip": self = .ipAddress(value)
        case "tls_client_auth_san_email": self = .email(value)
        default: return nil
        }
    }

    /// `name=value`, as logs and errors show it.
    public var description: String { "\(metadataName)=\(value)" }

    /// Encoded as the one metadata member it is: `{"tls_client_auth_subject_dn": "CN=…"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(value, forKey: AnyKey(metadataName))
    }

    /// Reads the one metadata member; more or fewer, or an unknown name, is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first,
            let subject = TLSClientAuthSubject(metadataName: key.stringValue, value: try container.decode(String.self, forKey: key))
        else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "give exactly one tls_client_auth_subject_dn or tls_client_auth_san_* member"))
        }
        self = subject
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Every metadata name, in RFC 8705 §2.1.2's order.
    public static let metadataNames = [
        "tls_client_auth_subject_dn", "tls_client_auth_san_dns", "tls_client_auth_san_uri", "tls_client_auth_san_ip",
        "tls_client_auth_san_email",
    ]
}
