import Foundation

/// One HTTP/1.1 request as its two senders describe it (the SDK's ``NIOTransport`` and the
/// server's calls to federation providers): an absolute `http` or `https` URL, a method, header
/// fields (a name may repeat), a body, and the `User-Agent` sent when the fields name none. No
/// HTTP library's types.
package struct HTTP1Request: Sendable {
    package var url: URL
    package var method: String
    package var headers: [(name: String, value: String)]
    package var body: Data
    package var defaultUserAgent: String

    package init(
        url: URL, method: String = "GET", headers: [(name: String, value: String)] = [], body: Data = Data(),
        defaultUserAgent: String = "Sesame"
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.defaultUserAgent = defaultUserAgent
    }
}

/// A response of any status: its header fields in the order received and the whole body.
package struct HTTP1Response: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Data

    package init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why no response arrived. The underlying cause (a SwiftNIO or BoringSSL error) is kept as text
/// so no library's error type reaches a caller.
package enum HTTP1ClientError: Error, Sendable, Equatable {
    /// Not an absolute `http` or `https` URL with a host.
    case unsupportedURL
    /// No connection: refused, unresolvable, unreachable, or a refused TLS handshake.
    case cannotConnect(String)
    /// The connection failed or closed before the whole response arrived.
    case connectionLost(String)
    /// The exchange outlasted its timeout.
    case timedOut
    /// The body outgrew the caller's limit.
    case responseTooLarge
    /// The server's answer is not an HTTP/1.1 response.
    case badResponse
}
