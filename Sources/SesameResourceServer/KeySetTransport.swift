import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How ``JWKSCache`` fetches the issuer's discovery document and JWK Set: a GET returning the
/// status and body. The seam lets an API use its own HTTP client (AsyncHTTPClient on a
/// SwiftNIO server); ``URLSessionKeySetTransport`` is the default.
public protocol KeySetTransport: Sendable {
    /// GETs `url` with `Accept: application/json`.
    func get(_ url: URL) async throws -> (status: Int, body: Data)
}

/// ``KeySetTransport`` over `URLSession`, with a timeout and a size cap, and no redirects
/// followed to another origin (a JWKS must come from where discovery says).
public struct URLSessionKeySetTransport: KeySetTransport {
    /// Longest a fetch may take.
    public var timeout: TimeInterval
    /// Largest body accepted; a JWK Set is a few kilobytes.
    public var maximumBodySize: Int

    /// A transport over `URLSession.shared` with these limits.
    public init(timeout: TimeInterval = 10, maximumBodySize: Int = 512 * 1024) {
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
    }

    /// GETs `url`; throws when there is no HTTP response or the body is over the size cap.
    public func get(_ url: URL) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (body, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        guard body.count <= maximumBodySize else { throw URLError(.dataLengthExceedsMaximum) }
        return (http.statusCode, body)
    }
}
