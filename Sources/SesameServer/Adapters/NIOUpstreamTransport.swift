import Foundation
import HTTP1Client
import NIOSSL
import SesameProvider

/// The provider's ``UpstreamTransport`` over ``HTTP1Client``: the server's calls to federation
/// providers (their JWKS, discovery, token and Graph endpoints), one connection per call, the
/// provider's chain verified by BoringSSL against `roots` (the system's) with its host name.
/// Redirects are answered, not followed: a provider's endpoints are the URLs its metadata names.
struct NIOUpstreamTransport: UpstreamTransport {
    /// With the system's roots.
    static let shared = NIOUpstreamTransport(roots: .default)

    /// `nil` only if BoringSSL could not make a client context (out of memory or unreadable
    /// roots): every `https` call then fails and says so.
    private let context: NIOSSLContext?

    init(roots: NIOSSLTrustRoots) {
        context = try? HTTP1Client.tlsContext(roots: roots)
    }

    func send(_ request: UpstreamRequest, timeout: TimeInterval, maximumBytes: Int) async throws -> UpstreamResponse {
        guard let url = URL(string: request.url) else { throw HTTP1ClientError.unsupportedURL }
        let endpoint = try HTTP1Endpoint(url)
        let outgoing = HTTP1Request(
            url: url, method: request.method.rawValue, headers: request.headers + [(name: "User-Agent", value: "Sesame")],
            body: request.body ?? Data())
        let response = try await HTTP1Client.send(
            outgoing, to: endpoint, tls: context, timeout: timeout, maximumResponseBytes: maximumBytes)
        return UpstreamResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
