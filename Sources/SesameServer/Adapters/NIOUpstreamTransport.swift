import Foundation
import HTTP1Client
import NIOSSL
import SesameProvider
import Synchronization

/// The provider's ``UpstreamTransport`` over ``HTTP1Client``: the server's calls to federation
/// providers (their JWKS, discovery, token and Graph endpoints), one connection per call, the
/// provider's chain verified by BoringSSL against `roots` (the system's) with its host name.
/// Redirects are answered, not followed: a provider's endpoints are the URLs its metadata names.
struct NIOUpstreamTransport: UpstreamTransport {
    /// With the system's roots.
    static let shared = NIOUpstreamTransport(roots: .default)

    /// Made at the first `https` call, not at start: the system's roots are ~140 certificates
    /// for BoringSSL to parse (about 0.5 MB of heap), and most servers never call a provider.
    /// `nil` only if BoringSSL could not make it (out of memory, unreadable roots): every `https`
    /// call then fails and says so.
    private let context: LazyTLSContext

    init(roots: NIOSSLTrustRoots) {
        context = LazyTLSContext(roots: roots)
    }

    func send(_ request: UpstreamRequest, timeout: TimeInterval, maximumBytes: Int) async throws -> UpstreamResponse {
        guard let url = URL(string: request.url) else { throw HTTP1ClientError.unsupportedURL }
        let endpoint = try HTTP1Endpoint(url)
        let outgoing = HTTP1Request(
            url: url, method: request.method.rawValue, headers: request.headers, body: request.body ?? Data())
        let response = try await HTTP1Client.send(
            outgoing, to: endpoint, tls: endpoint.secure ? context.value : nil, timeout: timeout,
            maximumResponseBytes: maximumBytes)
        return UpstreamResponse(status: response.status, headers: response.headers, body: response.body)
    }
}

/// A TLS client context made once, when first asked for.
final class LazyTLSContext: Sendable {
    private let roots: NIOSSLTrustRoots
    private let made = Mutex<NIOSSLContext??>(nil)

    init(roots: NIOSSLTrustRoots) { self.roots = roots }

    var value: NIOSSLContext? {
        made.withLock { made in
            if let made { return made }
            let context = try? HTTP1Client.tlsContext(roots: roots)
            made = .some(context)
            return context
        }
    }
}
