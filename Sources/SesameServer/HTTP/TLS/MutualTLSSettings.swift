/// Mutual TLS in the server (RFC 8705, `sesame serve --mtls [--tls-client-ca FILE] [--mtls-port N]`).
public struct MutualTLSSettings: Sendable, Equatable {
    /// A PEM file of the CAs that issue `tls_client_auth` certificates (RFC 8705 §2.1); `nil`:
    /// only `self_signed_tls_client_auth` clients and certificate binding work.
    public var clientCAFile: String?
    /// A second HTTPS port that asks for client certificates, advertised in discovery as
    /// `mtls_endpoint_aliases` (RFC 8705 §5); the main port then asks for none, so browsers are
    /// never offered a certificate choice. `nil`: the main port asks (optionally). `0` picks a
    /// free port (tests).
    public var port: Int?

    public init(clientCAFile: String? = nil, port: Int? = nil) {
        self.clientCAFile = clientCAFile
        self.port = port
    }
}
