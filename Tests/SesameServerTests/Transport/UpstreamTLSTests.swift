import Foundation
import HTTP1Client
import SesameProvider
import SesameTesting
import TestSupport
import Testing
@testable import SesameServer

/// The server's calls to federation providers over TLS (`NIOUpstreamTransport` on `HTTP1Client`),
/// against a real server whose certificate a throw-away CA issued in the test: the chain must
/// lead to the transport's roots (the system's in production, where the test CA is unknown) and
/// the certificate must name the host; the body is bounded.
@Suite(
    "Federation fetches over TLS (NIOUpstreamTransport)",
    .enabled(if: ToolRun.available("openssl") || ProcessInfo.processInfo.environment["CI"] == "true", "needs openssl"))
struct UpstreamTLSTests {
    @Test("a provider's JWKS over TLS: fetched by IP and by name under the CA; refused under the system's roots; a body past the limit refused")
    func trustedChain() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        try await withTestServer(configure: { $0.tls = files }) { server in
            let port = server.running.port
            let trusting = NIOUpstreamTransport(roots: .file(certificates.caFile))
            for host in ["127.0.0.1", "localhost"] {
                let response = try await trusting.send(
                    UpstreamRequest(url: "https://\(host):\(port)/jwks"), timeout: 10, maximumBytes: UpstreamHTTP.maximumBytes)
                #expect(response.status == 200, "\(host)")
                #expect(String(decoding: response.body, as: UTF8.self).contains(#""keys""#), "\(host)")
                #expect(response.values(of: "content-type").first?.hasPrefix("application/") == true)
            }
            await #expect(throws: HTTP1ClientError.self, "the test CA is not a system root") {
                _ = try await NIOUpstreamTransport.shared.send(
                    UpstreamRequest(url: "https://127.0.0.1:\(port)/jwks"), timeout: 10, maximumBytes: UpstreamHTTP.maximumBytes)
            }
            await #expect(throws: HTTP1ClientError.responseTooLarge) {
                _ = try await trusting.send(UpstreamRequest(url: "https://127.0.0.1:\(port)/jwks"), timeout: 10, maximumBytes: 16)
            }
            await #expect(throws: HTTP1ClientError.unsupportedURL) {
                _ = try await trusting.send(UpstreamRequest(url: "ftp://127.0.0.1:\(port)/jwks"), timeout: 10, maximumBytes: 16)
            }
        }
    }

    @Test("a certificate under the trusted CA that names another host is refused")
    func wrongName() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try "subjectAltName=DNS:provider.example\n".write(
            to: certificates.directory.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
        try await certificates.issue(commonName: "provider.example")
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        try await withTestServer(configure: { $0.tls = files }) { server in
            let trusting = NIOUpstreamTransport(roots: .file(certificates.caFile))
            for host in ["127.0.0.1", "localhost"] {
                await #expect(throws: HTTP1ClientError.self, "\(host) is not provider.example") {
                    _ = try await trusting.send(
                        UpstreamRequest(url: "https://\(host):\(server.running.port)/jwks"), timeout: 10,
                        maximumBytes: UpstreamHTTP.maximumBytes)
                }
            }
        }
    }
}
