import NIOHTTP1
import SesameProtocol

/// The checks a request head must pass before anything else runs (``ConnectionGuard``):
/// - RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any
///   HTTP/1.1 request message that lacks a Host header field and to any request message that
///   contains more than one Host header field line or a Host header field with an invalid
///   field value." (HTTP/1.0 may omit it.)
/// - RFC 9110 §15.5.14: a body larger than the server is willing to process is 413; a declared
///   `Content-Length` says so before the body arrives. A malformed or repeated-and-different
///   `Content-Length` is already refused by NIO's parser (RFC 9112 §6.3).
enum HeadCheck {
    /// The refusal of `head`, or `nil` when it may go on.
    static func refusal(
        of head: HTTPRequestHead, maximumBodySize: Int = ConnectionLimits.maximumBodySize
    ) -> (HTTPResponseStatus, APIErrorCode, String)? {
        let hosts = head.headers["host"]
        let needsHost = head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
        if hosts.count > 1 || (needsHost && hosts.isEmpty) || hosts.contains(where: { !isValidHost($0) }) {
            return (
                .badRequest, .invalidRequest,
                "An HTTP/1.1 request needs exactly one valid Host header (RFC 9112 section 3.2); the connection is closed."
            )
        }
        if let declared = head.headers.first(name: "content-length"), let length = Int(declared), length > maximumBodySize {
            return (
                .payloadTooLarge, .invalidRequest,
                "The body is larger than \(maximumBodySize / 1024) KiB; send fewer or shorter parameters. The connection is closed."
            )
        }
        return nil
    }

    /// RFC 9110 §7.2 `Host = uri-host [ ":" port ]`: no whitespace, no userinfo, no path, and
    /// not empty (an empty Host is allowed only for URIs without an authority, which no
    /// Sesame route is).
    static func isValidHost(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 255
            && !value.utf8.contains { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "@") }
    }
}
