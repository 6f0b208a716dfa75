import SesameProtocol
import Hummingbird
import Logging
import NIOCore

/// Per-request facts that endpoints record and the request log line reports: which client the
/// request was for and how it ended. Never holds a token, code, password or secret.
final class RequestAnnotations: Sendable {
    private struct State {
        var clientID: String?
        var outcome: String?
        var errorID: String?
    }

    private let state = LockedState(State())

    var clientID: String? { state.withLock { $0.clientID } }
    var outcome: String? { state.withLock { $0.outcome } }
    var errorID: String? { state.withLock { $0.errorID } }

    func record(clientID: String) { state.withLock { $0.clientID = clientID } }
    func record(outcome: String) { state.withLock { $0.outcome = outcome } }
    func record(errorID: String) { state.withLock { $0.errorID = errorID } }
}

/// The Hummingbird request context of the Sesame server: the core context, the TCP peer's
/// address and the ``RequestAnnotations`` the logging middleware reads after the endpoint has
/// answered.
public struct SesameRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The address of the connection's peer.
    public let remoteAddress: SocketAddress?
    /// The client's address: the peer, unless the peer is a trusted proxy and
    /// `X-Forwarded-For` names the client (``ForwardedClientMiddleware``, ``TrustedProxies``).
    /// ``LoginThrottle`` keys on it.
    public internal(set) var clientAddress: SocketAddress?
    let annotations = RequestAnnotations()
    /// The connection, for its TLS client certificate (``ClientCertificateSource``).
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
        self.remoteAddress = source.channel.remoteAddress
        self.clientAddress = remoteAddress
    }

    /// The largest request body any endpoint reads (form bodies, 64 KiB): form bodies at /token,
    /// /revoke, /introspect and /login are small. A request that declares a longer
    /// `Content-Length` is answered 413 before its body is read (``HeadCheck``, RFC 9110 §15.5.14).
    public static let maximumBodySize = 64 * 1024

    public var maxUploadSize: Int { Self.maximumBodySize }
}
