import Foundation

/// An RFC 6454 origin: scheme, host and port (default ports made explicit).
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// The URL scheme, lowercased (e.g. `https`).
    public let scheme: String
    /// The host, lowercased.
    public let host: String
    /// The port; the scheme's default (443, 80) when the URL has none, -1 for other schemes.
    public let port: Int

    /// The origin of `url`, or `nil` for URLs without scheme or host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    }

    /// `scheme://host:port`, always with the port, as in the SDK's error messages.
    public var description: String { "\(scheme)://\(host):\(port)" }

    /// How to write this origin in `allowed_origins`.
    var allowListEntry: String {
        let isDefault = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        return isDefault ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }
}

/// Decides which origins may receive the access token (tokens are only sent to
/// origins the app configured): the issuer's origin and every configured allowed origin.
struct OriginPolicy: Sendable {
    let allowed: Set<Origin>

    init(configuration: SesameConfiguration) {
        var origins = Set((configuration.allowedOrigins + configuration.apis).compactMap(Origin.init))
        if let issuer = Origin(configuration.issuer) { origins.insert(issuer) }
        allowed = origins
    }

    /// Throws ``SesameError/Code-swift.struct/invalidConfiguration`` when `url` is not an allowed origin.
    func check(_ url: URL?) throws(SesameError) {
        guard let url, let origin = Origin(url) else {
            throw .invalidConfiguration("The request has no absolute http(s) URL; Sesame only sends tokens to configured origins.")
        }
        guard allowed.contains(origin) else {
            throw .invalidConfiguration(
                "Sesame will not send the access token to \(origin). Add \"\(origin.allowListEntry)\" to allowed_origins (SesameConfiguration.allowedOrigins) if this API should receive it."
            )
        }
    }
}
