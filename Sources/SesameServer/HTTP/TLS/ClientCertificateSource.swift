import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOSSL
import SesameProtocol
import SesameProvider

/// Where a request's TLS client certificate comes from (RFC 8705 §2, `sesame serve --mtls`):
///
/// - the server's own TLS connection, when it terminates TLS (``ServerTLS``);
/// - the RFC 9440 `Client-Cert` header (with `Client-Cert-Chain`), only when the connection
///   comes from a trusted proxy (`--trusted-proxy`) that terminated TLS. From any other peer the
///   header is ignored: anyone can write a header, only the proxy saw the handshake.
///
/// `nil` when mutual TLS is off: no certificate is ever read.
struct ClientCertificateSource: Sendable {
    let proxies: TrustedProxies

    static let certificateHeader = HTTPField.Name("Client-Cert")!
    static let chainHeader = HTTPField.Name("Client-Cert-Chain")!

    /// The certificate `request` came with, or `nil`. Throws `invalid_request` for a trusted
    /// proxy's header that is not an RFC 9440 byte sequence holding a certificate.
    func certificate(_ request: Request, context: SesameRequestContext) async throws -> ClientCertificate? {
        if proxies.trusts(peer: context.remoteAddress) {
            // The proxy's own certificate, if its connection has one, is not the client's.
            guard let header = request.headers[Self.certificateHeader] else { return nil }
            return try Self.forwarded(header, chain: request.headers[values: Self.chainHeader])
        }
        let channel = context.channel
        // No TLS handler (plain HTTP) fails the lookup: no certificate.
        guard let leaf = try? await channel.nioSSL_peerCertificate().get() else { return nil }
        let validated = try? await channel.nioSSL_peerValidatedCertificateChain().get()
        guard let der = try? leaf.toDERBytes() else { return nil }
        return try? ClientCertificate(der: der, chainTrusted: validated != nil)
    }

    /// RFC 9440 §2.2: `Client-Cert: :base64-DER:` (a structured-field byte sequence, RFC 8941
    /// §3.3.5); §2.3: `Client-Cert-Chain`, a list of them, the leaf's issuer first.
    static func forwarded(_ header: String, chain: [String]) throws -> ClientCertificate {
        func failure(_ what: String) -> EndpointFailure {
            EndpointFailure(
                .invalidRequest,
                "The proxy's \(what) header is not an RFC 9440 byte sequence (:base64 DER:) holding an X.509 certificate.")
        }
        guard header.utf8.count <= 16 * 1024, let der = byteSequence(header) else { throw failure("Client-Cert") }
        var intermediates: [[UInt8]] = []
        for line in chain {
            for member in line.split(separator: ",").prefix(8) {
                guard let bytes = byteSequence(String(member)) else { throw failure("Client-Cert-Chain") }
                intermediates.append(bytes)
            }
        }
        do {
            return try ClientCertificate(der: der, intermediates: intermediates)
        } catch {
            throw failure("Client-Cert")
        }
    }

    private static func byteSequence(_ text: String) -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, trimmed.first == ":", trimmed.last == ":" else { return nil }
        return Data(base64Encoded: String(trimmed.dropFirst().dropLast())).map { Array($0) }
    }
}
