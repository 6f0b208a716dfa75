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

    /// The certificate pins this transport enforces in its TLS handshakes (``CertificatePinning``),
    /// throwing ``CertificatePinMismatch/error`` before writing a request when none matches.
    /// `nil` (the default): it enforces none, and the SDK refuses to send it requests for a host
    /// the configuration pins.
    var certificatePinning: CertificatePinning? { get }
}

extension HTTPTransport {
    /// Enforces no pins.
    public var certificatePinning: CertificatePinning? { nil }
}
