import Foundation
import SesameStore

/// Redirect URI comparison (RFC 9700 §4.1.3: exact string matching), with the single
/// exception of RFC 8252 §7.3: for a registered loopback IP redirect URI
/// (`http://127.0.0.1/...` or `http://[::1]/...`) any port matches, because native apps pick
/// an ephemeral port at request time. `localhost` gets no exception (RFC 8252 §8.3).
package enum RedirectURIMatcher {
    /// The registered URI that `presented` matches, if any.
    package static func match(_ presented: String, registered: [String]) -> String? {
        registered.first { matches(presented, registered: $0) }
    }

    package static func matches(_ presented: String, registered: String) -> Bool {
        if presented == registered { return true }
        guard let presentedParts = LoopbackURI(presented), let registeredParts = LoopbackURI(registered)
        else { return false }
        return presentedParts.host == registeredParts.host
            && presentedParts.pathAndQuery == registeredParts.pathAndQuery
    }

    /// `http://<loopback IP>[:port]<rest>` split textually (no normalization, so the rest of
    /// the URI still has to match byte for byte).
    private struct LoopbackURI {
        let host: String
        let pathAndQuery: String

        init?(_ text: String) {
            let prefix = "http://"
            guard text.hasPrefix(prefix) else { return nil }
            let afterScheme = text.dropFirst(prefix.count)
            let host: Substring
            let afterHost: Substring
            if afterScheme.hasPrefix("127.0.0.1") {
                host = afterScheme.prefix(9)
                afterHost = afterScheme.dropFirst(9)
            } else if afterScheme.hasPrefix("[::1]") {
                host = afterScheme.prefix(5)
                afterHost = afterScheme.dropFirst(5)
            } else {
                return nil
            }
            var rest = afterHost
            if rest.first == ":" {
                let port = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
                guard !port.isEmpty, port.count <= 5, let value = Int(port), value <= 65535 else { return nil }
                rest = rest.dropFirst(1 + port.count)
            }
            guard rest.isEmpty || rest.first == "/" || rest.first == "?" else { return nil }
            guard !rest.contains("#") else { return nil }
            self.host = String(host)
            self.pathAndQuery = String(rest)
        }
    }
}
