import ArgumentParser
import Dispatch
import Foundation
import SesameServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `sesame serve --tls-certificate FILE --tls-key FILE` (issue #48): HTTPS in the server, TLS 1.2
/// and 1.3, the issuer `https://…`; `kill -HUP` reloads the files (a renewed certificate) without
/// dropping a connection.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-certificate"),
        help: ArgumentHelp("Serve HTTPS with this PEM certificate chain (leaf first); SIGHUP reloads it.", valueName: "file"))
    var certificate: String?
    @Option(
        name: .customLong("tls-key"), help: ArgumentHelp("The certificate's private key (PEM, unencrypted).", valueName: "file"))
    var key: String?
    @Flag(
        name: .customLong("mtls"),
        help: "Mutual TLS (RFC 8705): ask TLS clients for a certificate (optional; browsers connect as before) and read a trusted proxy's Client-Cert header (RFC 9440), for tls_client_auth, self_signed_tls_client_auth and certificate-bound tokens.")
    var mutualTLS = false
    @Option(
        name: .customLong("tls-client-ca"),
        help: ArgumentHelp("With --mtls: the CAs (PEM) whose certificates tls_client_auth clients present.", valueName: "file"))
    var clientCA: String?
    @Option(
        name: .customLong("mtls-port"),
        help: ArgumentHelp(
            "With --mtls: a second HTTPS port that asks for client certificates, advertised as mtls_endpoint_aliases (RFC 8705 section 5); the main port then asks for none, so browsers never see a certificate prompt.",
            valueName: "port"))
    var mutualTLSPort: Int?

    func validate() throws {
        guard (certificate == nil) == (key == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together: give both, or neither for plain HTTP.")
        }
        if clientCA != nil, !mutualTLS {
            throw ValidationError("--tls-client-ca is for mutual TLS: add --mtls.")
        }
        if let mutualTLSPort {
            guard mutualTLS, certificate != nil else {
                throw ValidationError("--mtls-port is a second HTTPS port for mutual TLS: add --mtls, --tls-certificate and --tls-key.")
            }
            guard (0...65_535).contains(mutualTLSPort) else {
                throw ValidationError("--mtls-port must be a TCP port, 0 to 65535.")
            }
        }
    }

    /// Mutual TLS, or `nil` when off.
    var mutualTLSSettings: MutualTLSSettings? {
        mutualTLS ? MutualTLSSettings(clientCAFile: clientCA, port: mutualTLSPort) : nil
    }

    /// The files, or `nil` for plain HTTP.
    var files: TLSFiles? {
        guard let certificate, let key else { return nil }
        return TLSFiles(certificate: certificate, key: key)
    }
}

/// SIGHUP while the server runs: `reload` is called on each (a `DispatchSourceSignal`, no thread
/// blocked). Keep the value alive as long as reloads should happen.
final class ReloadSignal: Sendable {
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    init(_ reload: @escaping @Sendable () -> Void) {
        #if canImport(Darwin)
            signal(SIGHUP, SIG_IGN)
        #endif
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "sesame.reload"))
        source.setEventHandler(handler: reload)
        source.resume()
    }

    deinit { source.cancel() }
}
