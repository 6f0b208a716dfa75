import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request and returns the body and response, without interpreting the status.
/// The seam between the SDK and the network: `URLSessionTransport` by default; tests pass an
/// in-memory provider.
public protocol HTTPTransport: Sendable {
    /// Sends `request`; throws only when no HTTP response was received.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
