import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Where an ``HTTP1Request`` goes: its scheme, host and port, read from the URL. An IP literal
/// (brackets removed) gets no SNI (RFC 6066 §3) and is matched against the certificate's IP SANs.
package struct HTTP1Endpoint: Sendable {
    package let secure: Bool
    package let host: String
    package let port: Int
    package let isIPAddress: Bool

    /// Throws ``HTTP1ClientError/unsupportedURL`` unless `url` is absolute `http` or `https` with a host.
    package init(_ url: URL) throws(HTTP1ClientError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", let rawHost = url.host,
            !rawHost.isEmpty
        else { throw .unsupportedURL }
        host = rawHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        secure = scheme == "https"
        port = url.port ?? (secure ? 443 : 80)
        isIPAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

/// A minimal HTTP/1.1 client on SwiftNIO and swift-nio-ssl: one exchange per connection
/// (RFC 9112, `Connection: close`), TLS 1.2 or 1.3 with ALPN `http/1.1` for `https`, redirects
/// returned rather than followed (RFC 9700 §4.12), the body bounded, the exchange bounded by a
/// timeout. No proxies, no pooling: its two users send a request now and then (the SDK's pinned
/// calls, the server's fetches of a federation provider's keys), where one connection each is
/// cheaper than a pool's machinery.
package enum HTTP1Client {
    /// NIOSSL's custom verification callback, as a `Sendable` function.
    package typealias Verification = @Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResultWithMetadata>) -> Void

    /// A TLS client context for `roots` (the system's by default): TLS 1.2–1.3, ALPN `http/1.1`,
    /// BoringSSL's chain and host-name verification unless a send brings its own ``Verification``.
    package static func tlsContext(roots: NIOSSLTrustRoots = .default) throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.maximumTLSVersion = .tlsv13
        tls.applicationProtocols = ["http/1.1"]
        tls.trustRoots = roots
        return try NIOSSLContext(configuration: tls)
    }

    /// Sends `request` to `endpoint` on a new connection and returns the response of any status.
    /// `tls` is required for an `https` endpoint; `verification`, when given, replaces BoringSSL's
    /// verification of the server's chain (and must do all of it).
    package static func send(
        _ request: HTTP1Request, to endpoint: HTTP1Endpoint, tls: NIOSSLContext?, verification: Verification? = nil,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, timeout: TimeInterval, maximumResponseBytes: Int
    ) async throws(HTTP1ClientError) -> HTTP1Response {
        if endpoint.secure, tls == nil { throw .cannotConnect("no TLS context for an https URL") }
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(Int64(min(max(timeout, 1), 600))))
                .connect(host: endpoint.host, port: endpoint.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if endpoint.secure, let tls {
                            let hostname = endpoint.isIPAddress ? nil : endpoint.host
                            let handler =
                                if let verification {
                                    try NIOSSLClientHandler(
                                        context: tls, serverHostname: hostname, customVerificationCallbackWithMetadata: verification)
                                } else {
                                    try NIOSSLClientHandler(context: tls, serverHostname: hostname)
                                }
                            try channel.pipeline.syncOperations.addHandler(handler)
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw .cannotConnect("\(error)")
        }
        return try await HTTP1Exchange(request: request, endpoint: endpoint, maximumResponseBytes: maximumResponseBytes)
            .run(on: channel, timeout: timeout)
    }
}
