import Foundation
import SesameStore

/// One HTTP request to a federation provider (its JWKS, discovery, token or Graph endpoint),
/// as the provider's logic describes it: no HTTP library's types.
package struct UpstreamRequest: Sendable {
    package enum Method: String, Sendable { case get = "GET", post = "POST" }
    package var url: String
    package var method: Method = .get
    package var headers: [(name: String, value: String)] = []
    package var body: Data?

    package init(url: String, method: Method = .get, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// A provider's answer: the status, the headers (a name may repeat) and the body, read up to
/// ``UpstreamHTTP/maximumBytes``.
package struct UpstreamResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Data

    package init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Every value of the header `name` (compared case-insensitively, RFC 9110 §5.1).
    package func values(of name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}

/// How the provider reaches federation providers: the seam between its logic and an HTTP
/// client. The server implements it on SwiftNIO (`NIOUpstreamTransport`); tests may point it anywhere.
package protocol UpstreamTransport: Sendable {
    /// Sends `request`, waiting at most `timeout` seconds and reading at most `maximumBytes` of
    /// the body; throws when the provider cannot be reached or answers with more.
    func send(_ request: UpstreamRequest, timeout: TimeInterval, maximumBytes: Int) async throws -> UpstreamResponse
}

/// The provider's calls to a federation provider: 10-second timeout, a bounded body, and an
/// unreachable provider refused as ``FederationRefusal/keys(_:)`` naming the endpoint.
package enum UpstreamHTTP {
    package static let timeout: TimeInterval = 10
    package static let maximumBytes = 256 * 1024

    /// The answer to `request`.
    package static func fetch(_ request: UpstreamRequest, transport: any UpstreamTransport, what: String)
        async throws(FederationRefusal) -> UpstreamResponse
    {
        do {
            return try await transport.send(request, timeout: timeout, maximumBytes: maximumBytes)
        } catch {
            throw .keys("the provider's \(what) could not be reached (\(error))")
        }
    }

    /// The status and JSON object of `request`; a body that is not a JSON object is refused.
    package static func json(_ request: UpstreamRequest, transport: any UpstreamTransport, what: String)
        async throws(FederationRefusal) -> (status: Int, object: [String: Any])
    {
        let response = try await fetch(request, transport: transport, what: what)
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
            throw .keys("the provider's \(what) answered HTTP \(response.status) without JSON")
        }
        return (response.status, object)
    }
}
