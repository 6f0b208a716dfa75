import Foundation
import NIOCore
import NIOHTTP1
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
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.maximumTLSVersion = .tlsv13
        tls.applicationProtocols = ["http/1.1"]
        // No files or keys to read: only a BoringSSL failure (out of memory) leaves it nil.
        context = try? NIOSSLContext(configuration: tls)
    }

    /// Sends `request` on a new connection and returns the response of any status.
    /// Throws ``CertificatePinMismatch/error`` when the server's keys are not pinned, and a
    /// `URLError` when no response arrived (`.serverCertificateUntrusted`, `.cannotConnectToHost`,
    /// `.timedOut`, `.dataLengthExceedsMaximum`, `.networkConnectionLost`).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let rawHost = url.host, !rawHost.isEmpty
        else { throw URLError(.unsupportedURL) }
        let host = rawHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let secure = scheme == "https"
        if secure, context == nil { throw URLError(.secureConnectionFailed) }
        let port = url.port ?? (secure ? 443 : 80)
        // An IP literal gets no SNI (RFC 6066 §3) and is matched against the certificate's IP SANs.
        let isIP = (try? SocketAddress(ipAddress: host, port: 0)) != nil
        let verifier = ServerCertificateVerifier(
            host: host, isIPAddress: isIP, roots: trustRoots.store, pinning: certificatePinning ?? .none)
        let exchange = HTTP1Exchange(
            request: request, host: host, port: port, maximumResponseBytes: maximumResponseBytes)
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(Int64(min(max(request.timeoutInterval, 1), 600))))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if secure, let context {
                            let handler = try NIOSSLClientHandler(
                                context: context, serverHostname: isIP ? nil : host,
                                customVerificationCallbackWithMetadata: verifier.verify)
                            try channel.pipeline.syncOperations.addHandler(handler)
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                            wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw Self.urlError(error, verifier: verifier, otherwise: .cannotConnectToHost)
        }
        do {
            return try await exchange.run(on: channel, timeout: request.timeoutInterval)
        } catch {
            throw Self.urlError(error, verifier: verifier, otherwise: .networkConnectionLost)
        }
    }

    /// What a failed send throws: the pin mismatch or untrusted chain the handshake found, a
    /// `URLError` as it is, and any other failure (NIO's channel and connect errors) as a
    /// `URLError` of `code`, with the cause in its description: no error type of SwiftNIO reaches
    /// the SDK.
    private static func urlError(_ error: any Error, verifier: ServerCertificateVerifier, otherwise code: URLError.Code) -> any Error {
        switch verifier.refusal {
        case .pinMismatch(let mismatch): return mismatch.error
        case .untrusted(let reason):
            return URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: reason])
        case nil:
            if let error = error as? URLError { return error }
            return URLError(code, userInfo: [NSLocalizedDescriptionKey: "\(error)"])
        }
    }
}
