import Foundation

/// The app's certificate pins, by host (``SesameConfiguration/pinning``), and the one decision
/// every transport makes with them: after the system has verified a server's certificate chain,
/// is one of its public keys pinned? ``URLSessionTransport`` asks it in the `URLSession` trust
/// challenge (Apple platforms), `NIOTransport` (the `SesameNIOTransport` product) in its TLS
/// handshake (Linux). Both decide before the request is written, so a refused connection carries
/// neither body nor credentials.
///
/// The JSON form is the array of ``PinnedHost`` entries.
public struct CertificatePinning: Sendable, Equatable, Codable {
    /// The pinned hosts; a host under none of them is not pinned.
    public var hosts: [PinnedHost]

    /// No pins: the system's trust alone decides (the default).
    public static let none = CertificatePinning(hosts: [])

    /// Pins for these hosts.
    public init(hosts: [PinnedHost]) { self.hosts = hosts }

    /// Whether no host is pinned.
    public var isEmpty: Bool { hosts.isEmpty }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        hosts = try decoder.singleValueContainer().decode([PinnedHost].self)
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hosts)
    }

    /// The entry that decides for `host` at `now`: the most specific one covering it (an exact
    /// host before a parent domain's `include_subdomains`). `nil`: not pinned, or its pins expired.
    public func entry(for host: String, at now: Date) -> PinnedHost? {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        let entry = hosts.filter { $0.covers(name) }.max { $0.host.count < $1.host.count }
        guard let entry else { return nil }
        if let expires = entry.expires, now >= expires { return nil }
        return entry
    }

    /// Checks a verified chain (DER certificates, leaf first) presented by `host`: matched when
    /// any certificate's public key is pinned (the leaf, an intermediate or the root), as OkHttp
    /// and TrustKit do. Call it only after the system's own evaluation succeeded, never instead.
    public func check(host: String, chain: [Data], at now: Date) -> PinCheck {
        guard entry(for: host, at: now) != nil else { return .notPinned }
        return check(host: host, presented: chain.compactMap { try? PublicKeyPin(certificateDER: $0) }, at: now)
    }

    /// As ``check(host:chain:at:)``, with the pins of the verified chain's keys already computed.
    public func check(host: String, presented: [PublicKeyPin], at now: Date) -> PinCheck {
        guard let entry = entry(for: host, at: now) else { return .notPinned }
        let pinned = Set(entry.pins)
        if presented.contains(where: pinned.contains) { return .matched }
        return .mismatch(CertificatePinMismatch(host: host, presented: presented))
    }

    /// The rules every entry meets, and one entry per host.
    func validate() throws(SesameError) {
        var seen = Set<String>()
        for entry in hosts {
            try entry.validate()
            guard seen.insert(entry.host.lowercased()).inserted else {
                throw .invalidConfiguration("pinning names \(entry.host) twice; merge its pins into one entry.")
            }
        }
    }
}

/// The outcome of ``CertificatePinning/check(host:chain:at:)``.
public enum PinCheck: Sendable, Equatable {
    /// The host has no active pins (none, or expired): the system's trust decided alone.
    case notPinned
    /// A certificate of the chain has a pinned key.
    case matched
    /// No certificate of the chain has a pinned key: refuse the connection.
    case mismatch(CertificatePinMismatch)
}

/// A refused connection: which host, and the pins of the keys it presented (hashes only, no
/// certificate data), for the error and the analytics event.
public struct CertificatePinMismatch: Sendable, Equatable, Error, CustomStringConvertible {
    /// The host the request was for.
    public var host: String
    /// The pins of the presented chain's keys, leaf first.
    public var presented: [PublicKeyPin]

    /// A mismatch at `host`, whose chain had these keys.
    public init(host: String, presented: [PublicKeyPin]) {
        self.host = host
        self.presented = presented
    }

    /// The host and the presented pins, in a sentence.
    public var description: String {
        "\(host) presented keys \(presented.map(\.description).joined(separator: ", ")), none of them pinned"
    }

    /// The error the SDK throws for it (``SesameError/Code-swift.struct/certificatePinMismatch``).
    public var error: SesameError {
        SesameError(.certificatePinMismatch(host: host, presentedPins: presented.map(\.description)))
    }
}

extension SesameError {
    /// The host and the presented keys' pins, for ``Code-swift.struct/certificatePinMismatch``.
    public var pinMismatch: CertificatePinMismatch? {
        guard case .certificatePinMismatch(let host, let pins) = reason else { return nil }
        return CertificatePinMismatch(host: host, presented: pins.compactMap { try? PublicKeyPin($0) })
    }
}
