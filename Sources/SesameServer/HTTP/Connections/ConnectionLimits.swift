import Foundation

/// How long a connection may take and how many may be open (RFC 9112 §9: connection
/// management is the server's to decide). Defaults never bother a real client and stop the
/// classic resource attacks: a request head trickled a byte at a time ("slowloris"), a body
/// that never finishes, idle keep-alive connections held open by the thousand.
public struct ConnectionLimits: Sendable, Equatable {
    /// The request line and headers must arrive within this time of the connection opening
    /// (a trickle of bytes does not extend it).
    public var headerTimeout: TimeInterval = 10
    /// A keep-alive connection with no request in progress is closed after this time.
    public var idleTimeout: TimeInterval = 60
    /// A request body must arrive within this time of its head.
    public var bodyTimeout: TimeInterval = 30
    /// At most this many connections are open; past it, a new connection is closed at once
    /// (``ConnectionCap``).
    public var maximumConnections = 2_000
    /// At a graceful stop (SIGTERM, ``RunningServer/shutdown()``), the time requests in progress
    /// get to finish after the server stops accepting connections; past it they are cancelled
    /// (their clients see the connection close) and the server stops. Below a container's
    /// usual 30 s grace before `SIGKILL`.
    public var shutdownTimeout: TimeInterval = 15
    /// The largest request body any endpoint reads (``SesameRequestContext/maximumBodySize``): a
    /// request that declares a longer `Content-Length` is answered 413 before its body is read,
    /// and the connection closed (RFC 9110 §15.5.14).
    public static let maximumBodySize = SesameRequestContext.maximumBodySize

    public init() {}

    /// The longest any of the timeouts may be: a day. Past it (1e30, infinity) a timer's
    /// deadline would overflow the clock; the CLI refuses such values before they get here.
    public static let longestTimeout: TimeInterval = 86_400

    /// Whether `seconds` is a usable timeout: above 0 and at most ``longestTimeout`` (NaN is not).
    public static func isValidTimeout(_ seconds: TimeInterval) -> Bool { seconds > 0 && seconds <= longestTimeout }
}
