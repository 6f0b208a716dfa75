import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The server's calls to a federation provider (its JWKS, discovery, token and Graph
/// endpoints): 10-second timeout, a bounded body, and an unreachable provider refused as
/// ``FederationRefusal/keys(_:)`` naming the endpoint.
enum ProviderHTTP {
    static let timeout: TimeAmount = .seconds(10)
    static let maximumBytes = 256 * 1024

    /// The status, headers and body of `request`.
    static func fetch(_ request: HTTPClientRequest, client: HTTPClient, what: String) async throws(FederationRefusal)
        -> (status: UInt, headers: HTTPHeaders, body: ByteBuffer)
    {
        do {
            let response = try await client.execute(request, timeout: timeout)
            return (response.status.code, response.headers, try await response.body.collect(upTo: maximumBytes))
        } catch {
            throw .keys("the provider's \(what) could not be reached (\(error))")
        }
    }

    /// The status and JSON object of `request`; a body that is not a JSON object is refused.
    static func json(_ request: HTTPClientRequest, client: HTTPClient, what: String) async throws(FederationRefusal)
        -> (status: UInt, object: [String: Any])
    {
        let (status, _, body) = try await fetch(request, client: client, what: what)
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
            throw .keys("the provider's \(what) answered HTTP \(status) without JSON")
        }
        return (status, object)
    }
}
