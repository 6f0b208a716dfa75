/// Mutual TLS in the server (RFC 8705, `sesame serve --mtls [--tls-client-ca FILE]`).
public struct MutualTLSSettings: Sendable, Equatable {
    /// A PEM file of the CAs that issue `tls_client_auth` certificates (RFC 8705 §2.1); `nil`:
    /// only `self_signed_tls_client_auth` clients and certificate binding work.
    public var clientCAFile: String?

    public init(clientCAFile: String? = nil) {
        self.clientCAFile = clientCAFile
    }
}
