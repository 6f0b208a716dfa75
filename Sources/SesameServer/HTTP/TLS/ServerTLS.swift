import Foundation
import Logging
import NIOSSL
import SesameProtocol
import SesameProvider

/// The PEM files `sesame serve --tls-certificate FILE --tls-key FILE` names (issue #48): the
/// server's certificate followed by its chain, and its private key.
public struct TLSFiles: Sendable, Equatable {
    /// The certificate chain, leaf first (PEM).
    public var certificate: String
    /// The private key of the leaf certificate (PEM, unencrypted).
    public var key: String

    /// The files at `certificate` and `key`.
    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}

/// Why the TLS files cannot serve; each case says what to change.
public enum TLSFilesError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadableCertificate(path: String, reason: String)
    case unreadableKey(path: String, reason: String)
    case unusable(reason: String)

    public var description: String {
        switch self {
        case .unreadableCertificate(let path, let reason):
            "cannot read the TLS certificate \(path) (\(reason)); give a PEM file with the server's certificate first, then its chain"
        case .unreadableKey(let path, let reason):
            "cannot read the TLS private key \(path) (\(reason)); give the certificate's key as an unencrypted PEM file"
        case .unusable(let reason):
            "the TLS certificate and key cannot serve (\(reason)); check that the key belongs to the certificate"
        }
    }
}

/// HTTPS in the server (issue #48; RFC 8446, RFC 9325's recommendations): TLS 1.2 and 1.3
/// only, TLS 1.2 with forward-secret AEAD suites only, ALPN `http/1.1` (RFC 7301). The context
/// is built from the files at start and again on ``reload()`` (`SIGHUP`): new connections use
/// the new certificate, open ones keep theirs, so a renewed certificate never drops a request.
/// A reload that fails keeps the current certificate.
final class ServerTLS: Sendable {
    let files: TLSFiles
    /// Whether connections are asked for a client certificate (RFC 8705, `sesame serve --mtls`):
    /// optional, so browsers and clients without one connect as before.
    let requestsClientCertificates: Bool
    /// The CAs a presented chain is validated against during the handshake; a chain that does
    /// not validate still connects (a self-signed certificate, RFC 8705 §2.2), without the mark.
    let clientTrust: ClientCertificateTrust?
    private let context: LockedState<NIOSSLContext>

    /// TLS 1.2's suites (RFC 9325 §4.2): ECDHE with AES-GCM or ChaCha20-Poly1305 only.
    static let tls12CipherSuites = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    init(files: TLSFiles, requestsClientCertificates: Bool = false, clientTrust: ClientCertificateTrust? = nil) throws {
        self.files = files
        self.requestsClientCertificates = requestsClientCertificates
        self.clientTrust = clientTrust
        context = LockedState(try Self.context(files, requestsClientCertificates: requestsClientCertificates))
    }

    /// The context new connections use.
    var current: NIOSSLContext { context.withLock { $0 } }

    /// Reads the files again; new connections use them from now on.
    func reload() throws {
        let fresh = try Self.context(files, requestsClientCertificates: requestsClientCertificates)
        context.withLock { $0 = fresh }
    }

    /// The TLS handler of a new connection. With client certificates requested, any presented
    /// certificate is accepted (TLS proves the client holds its key); a chain that validates
    /// to ``clientTrust`` is recorded as the connection's validated chain, which
    /// ``ClientCertificateSource`` reads as `chainTrusted`.
    func handler() -> NIOSSLServerHandler {
        guard requestsClientCertificates else { return NIOSSLServerHandler(context: current) }
        let trust = clientTrust
        return NIOSSLServerHandler(context: current) { chain, promise in
            guard let trust, let leaf = chain.first, let der = try? leaf.toDERBytes(),
                let certificate = try? ClientCertificate(der: der)
            else {
                promise.succeed(.certificateVerified(VerificationMetadata(nil)))
                return
            }
            let intermediates = chain.dropFirst().compactMap { try? $0.toDERBytes() }
            Task {
                let trusted = await trust.validates(leaf: certificate.certificate, intermediates: intermediates)
                promise.succeed(.certificateVerified(VerificationMetadata(trusted ? ValidatedCertificateChain(chain) : nil)))
            }
        }
    }

    static func context(_ files: TLSFiles, requestsClientCertificates: Bool = false) throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(files.certificate)
        } catch {
            throw TLSFilesError.unreadableCertificate(path: files.certificate, reason: "\(error)")
        }
        guard !chain.isEmpty else {
            throw TLSFilesError.unreadableCertificate(path: files.certificate, reason: "it holds no certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: files.key, format: .pem)
        } catch {
            throw TLSFilesError.unreadableKey(path: files.key, reason: "\(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.maximumTLSVersion = .tlsv13
        configuration.cipherSuites = tls12CipherSuites
        configuration.applicationProtocols = ["http/1.1"]
        // RFC 8705: ask for a certificate, never require one; ``handler()``'s callback decides.
        if requestsClientCertificates { configuration.certificateVerification = .optionalVerification }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw TLSFilesError.unusable(reason: "\(error)")
        }
    }
}
