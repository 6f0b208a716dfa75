import Hummingbird
import NIOCore
import NIOSSL
import SesameResourceServer

/// A request context that carries the access token ``AccessTokenMiddleware`` verified, for the
/// handlers behind it.
public protocol AccessTokenRequestContext: RequestContext {
    /// The verified token; `nil` before the middleware ran.
    var accessToken: VerifiedAccessToken? { get set }

    /// The TLS client certificate (DER) the request's connection presented, for tokens bound to
    /// one (RFC 8705 §3); `nil` by default. ``ResourceRequestContext`` reads it from the
    /// connection when the API terminates TLS itself.
    func tlsClientCertificate() async -> [UInt8]?
}

extension AccessTokenRequestContext {
    /// No certificate: a certificate-bound token is then refused.
    public func tlsClientCertificate() async -> [UInt8]? { nil }

    /// The verified token, for a handler behind ``AccessTokenMiddleware``. Throws 401 when the
    /// route was (wrongly) registered without the middleware, rather than trapping.
    public func requireAccessToken() throws -> VerifiedAccessToken {
        guard let accessToken else {
            throw HTTPError(.unauthorized, message: "This route is not behind AccessTokenMiddleware.")
        }
        return accessToken
    }
}

/// The context to use when an API needs nothing else: Hummingbird's basic context plus the
/// token, the peer's address and, over TLS (HummingbirdTLS or a NIOSSL server handler), the
/// client certificate of the connection.
public struct ResourceRequestContext: AccessTokenRequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The token ``AccessTokenMiddleware`` verified.
    public var accessToken: VerifiedAccessToken?
    /// The connection's peer (a TLS-terminating proxy, when there is one).
    public let remoteAddress: SocketAddress?
    private let channel: any Channel

    /// A context for a new request, without a token yet.
    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.accessToken = nil
        self.channel = source.channel
        self.remoteAddress = source.channel.remoteAddress
    }

    /// The certificate the connection's TLS handshake presented; `nil` over plain HTTP.
    public func tlsClientCertificate() async -> [UInt8]? {
        guard let certificate = try? await channel.nioSSL_peerCertificate().get() else { return nil }
        return try? certificate.toDERBytes()
    }
}
