import Foundation
import HTTP1Client
import NIOCore
import NIOPosix
import NIOSSL
import Sesame
import X509

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` on SwiftNIO and swift-nio-ssl, for platforms where `URLSession` offers no
/// TLS trust hook (Linux): it verifies the server itself (``TrustRoots``, RFC 5280 path
/// validation and the host name with swift-certificates) and enforces ``CertificatePinning``
/// in the handshake, before a byte of the request is written. A product of its own
/// (`SesameNIOTransport`), so apps that do not pin do not link SwiftNIO.
///
/// ```swift
/// let sesame = SesameClient(
///     configuration: configuration, store: store,
///     transport: NIOTransport(pinning: configuration.pinning))
/// ```
///
/// One HTTP/1.1 exchange per connection (TLS 1.2 or 1.3, ALPN `http/1.1`); redirects are
/// returned, not followed (RFC 9700 §4.12); a response body over ``maximumResponseBytes`` or a
/// request past its `timeoutInterval` fails with `URLError`. No HTTP proxy support.
public struct NIOTransport: HTTPTransport {
    /// The certificates a server's chain must lead to.
    public struct TrustRoots: Sendable {
        let store: CertificateStore

        /// The system's roots (`/etc/ssl/certs/ca-certificates.crt` and the other known bundles).
        public static var system: TrustRoots { TrustRoots(store: CertificateStore.systemTrustRoots) }

        /// These roots only (a private CA, a test's throw-away CA).
        public static func only(_ roots: [Certificate]) -> TrustRoots { TrustRoots(store: CertificateStore(roots)) }

        /// The system's roots and these.
        public static func system(adding roots: [Certificate]) -> TrustRoots {
            TrustRoots(store: CertificateStore.systemTrustRoots.appending(contentsOf: roots))
        }

        /// The certificates of a PEM file (one or more `CERTIFICATE` blocks): only those, or those
        /// beside `base` (``system``).
        public static func pemFile(_ path: String, addingTo base: TrustRoots? = nil) throws(SesameError) -> TrustRoots {
            let roots: [Certificate]
            do {
                roots = try NIOSSLCertificate.fromPEMFile(path).map { try Certificate(derEncoded: $0.toDERBytes()) }
            } catch {
                throw .invalidConfiguration("cannot read CA certificates from \(path): give a PEM file of CERTIFICATE blocks (\(error)).")
            }
            guard !roots.isEmpty else {
                throw .invalidConfiguration("\(path) holds no certificate: give a PEM file of CERTIFICATE blocks.")
            }
            guard let base else { return .only(roots) }
            return TrustRoots(store: base.store.appending(contentsOf: roots))
        }
    }

    /// The pins enforced in every handshake.
    public let certificatePinning: CertificatePinning?
    /// The roots a server's chain must lead to.
    public let trustRoots: TrustRoots
    /// The largest response body accepted (default 8 MiB).
    public var maximumResponseBytes: Int
    private let group: any EventLoopGroup
    /// `nil` only if BoringSSL could not make a client context (out of memory): every send then fails.
    private let context: NIOSSLContext?

    /// - Parameters:
    ///   - pinning: the pins to enforce (pass the configuration's ``SesameConfiguration/pinning``).
    ///   - trustRoots: the roots servers' chains must lead to; the system's by default.
    ///   - group: the event loops; NIO's shared singleton by default.
    public init(
        pinning: CertificatePinning = .none, trustRoots: TrustRoots = .system,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, maximumResponseBytes: Int = 8 << 20
    ) {
        certificatePinning = pinning
        self.trustRoots = trustRoots
        self.group = group
        self.maximumResponseBytes = maximumResponseBytes
        // The handshake's verification is ServerCertificateVerifier's (against `trustRoots`), so
        // the context gets no roots of its own: BoringSSL's copy of the system's would be ~140
        // certificates parsed for nothing. No files or keys to read: only a BoringSSL failure (out
        // of memory) leaves it nil.
        context = try? HTTP1Client.tlsContext(roots: .certificates([]))
    }

    /// Sends `request` on a new connection and returns the response of any status.
    /// Throws ``CertificatePinMismatch/error`` when the server's keys are not pinned, and a
    /// `URLError` when no response arrived (`.serverCertificateUntrusted`, `.cannotConnectToHost`,
    /// `.timedOut`, `.dataLengthExceedsMaximum`, `.networkConnectionLost`).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let endpoint = try? HTTP1Endpoint(url) else { throw URLError(.unsupportedURL) }
        if endpoint.secure, context == nil { throw URLError(.secureConnectionFailed) }
        let verifier = ServerCertificateVerifier(
            host: endpoint.host, isIPAddress: endpoint.isIPAddress, roots: trustRoots.store, pinning: certificatePinning ?? .none)
        let outgoing = HTTP1Request(
            url: url, method: request.httpMethod ?? "GET",
            headers: (request.allHTTPHeaderFields ?? [:]).map { (name: $0.key, value: $0.value) },
            body: request.httpBody ?? Data(), defaultUserAgent: "Sesame (NIOTransport)")
        let response: HTTP1Response
        do {
            response = try await HTTP1Client.send(
                outgoing, to: endpoint, tls: context, verification: verifier.verify, group: group,
                timeout: request.timeoutInterval, maximumResponseBytes: maximumResponseBytes)
        } catch {
            throw Self.urlError(error, verifier: verifier)
        }
        var fields: [String: String] = [:]
        for (name, value) in response.headers {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        guard let head = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields)
        else { throw URLError(.badServerResponse) }
        return (response.body, head)
    }

    /// What a failed send throws: the pin mismatch or untrusted chain the handshake found, else
    /// the client's failure as a `URLError`, with the cause in its description: no error type of
    /// SwiftNIO reaches the SDK.
    private static func urlError(_ error: HTTP1ClientError, verifier: ServerCertificateVerifier) -> any Error {
        switch verifier.refusal {
        case .pinMismatch(let mismatch): return mismatch.error
        case .untrusted(let reason):
            return URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: reason])
        case nil:
            switch error {
            case .unsupportedURL: return URLError(.unsupportedURL)
            case .timedOut: return URLError(.timedOut)
            case .responseTooLarge: return URLError(.dataLengthExceedsMaximum)
            case .badResponse: return URLError(.badServerResponse)
            case .cannotConnect(let cause):
                return URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: cause])
            case .connectionLost(let cause):
                return URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: cause])
            }
        }
    }
}
