import Foundation
import Sesame

/// A loopback redirect URI (RFC 8252 §7.3): `http://127.0.0.1:<port>/<path>` or
/// `http://[::1]:<port>/<path>`.
///
/// `localhost` is refused: RFC 8252 §8.3 says it is NOT RECOMMENDED because it may resolve to
/// another interface or be captured by a firewall; the literal loopback address is listened on
/// instead. Port 0 or no port means "any free port".
struct LoopbackRedirectURI: Sendable, Equatable {
    /// The default path when the configured URI has none.
    static let defaultPath = "/callback"

    /// The address to bind: `127.0.0.1` or `::1`.
    let host: String
    /// The port to bind; 0 for a random free port.
    let port: Int
    /// The path the browser is redirected to, starting with `/`.
    let path: String

    /// Parses and checks a configured redirect URI.
    ///
    /// - Throws: ``SesameError/invalidConfiguration(_:)`` saying how to fix the URI.
    init(_ url: URL) throws(SesameError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .invalidConfiguration("the redirect URI \(url.absoluteString) is not a valid URL")
        }
        guard components.scheme?.lowercased() == "http" else {
            throw .invalidConfiguration(
                "the loopback redirect URI must use http (RFC 8252 §7.3), e.g. http://127.0.0.1/callback; got \(url.absoluteString)"
            )
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        switch host.lowercased() {
        case "127.0.0.1", "::1":
            break
        case "localhost":
            throw .invalidConfiguration(
                "the loopback redirect URI uses 'localhost'; use http://127.0.0.1 (or http://[::1]) instead, as RFC 8252 §8.3 recommends, and register that URI with the provider"
            )
        default:
            throw .invalidConfiguration(
                "the loopback redirect URI must point to 127.0.0.1 or [::1] (RFC 8252 §7.3); got host '\(host)'"
            )
        }
        guard components.user == nil, components.password == nil else {
            throw .invalidConfiguration("the loopback redirect URI must not contain a user name or password")
        }
        guard components.query == nil, components.fragment == nil else {
            throw .invalidConfiguration("the loopback redirect URI must not contain a query or fragment; remove it")
        }
        let port = components.port ?? 0
        guard (0...65535).contains(port) else {
            throw .invalidConfiguration("the loopback redirect URI has port \(port); use 1-65535, or 0 / no port for any free port")
        }
        self.host = host.lowercased()
        self.port = port
        self.path = components.percentEncodedPath.isEmpty ? Self.defaultPath : components.percentEncodedPath
    }

    /// `http://127.0.0.1:<port><path>` (or `http://[::1]:…`) with the port actually bound.
    func url(boundPort: Int) -> URL {
        let authority = host.contains(":") ? "[\(host)]" : host
        // Every part was validated above, so the string is a valid URL.
        return URL(string: "http://\(authority):\(boundPort)\(path)")!
    }
}
