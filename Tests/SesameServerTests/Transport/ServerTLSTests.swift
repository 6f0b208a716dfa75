import ChildProcess
import Foundation
import SesameProtocol
import SesameTesting
import TestSupport
import Testing
@testable import SesameServer

/// HTTPS in the server (issue #48), met by real third-party clients: curl and Python's `ssl`
/// over TLS against certificates a throw-away CA issued in the test. TLS 1.2 and 1.3 only, ALPN
/// `http/1.1`, the issuer `https://`, HSTS; a renewed certificate reloaded without dropping an
/// open connection; a broken renewal keeps the old certificate.
@Suite(
    "Server TLS (curl, Python ssl)",
    .enabled(
        if: ["openssl", "curl", "python3"].allSatisfy(ToolRun.available) || ProcessInfo.processInfo.environment["CI"] == "true",
        "needs openssl, curl and python3"))
struct ServerTLSTests {
    @Test("curl over TLS 1.3 and 1.2 gets discovery with an https issuer and HSTS; TLS 1.1 and plain HTTP are refused; ALPN http/1.1")
    func handshake() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        try await withTestServer(configure: { $0.tls = files }) { server in
            let port = server.running.port
            let url = "https://127.0.0.1:\(port)/.well-known/openid-configuration"
            #expect(server.issuer == "https://127.0.0.1:\(port)")
            let modern = try await curl(["-sS", "-i", "-v", "--tlsv1.3", "--cacert", certificates.caFile, url], certificates)
            #expect(modern.status == 0, "\(modern.error)")
            #expect(modern.output.contains(#""issuer":"https:\/\/127.0.0.1:\#(port)""#) || modern.output.contains("\"issuer\":\"https://127.0.0.1:\(port)\""), "\(modern.output.prefix(600))")
            #expect(modern.output.lowercased().contains("strict-transport-security: max-age="))
            #expect(modern.error.contains("TLSv1.3") && modern.error.contains("ALPN: server accepted http/1.1"), "\(modern.error)")

            let twelve = try await curl(["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--tlsv1.2", "--tls-max", "1.2", "--cacert", certificates.caFile, url], certificates)
            #expect(twelve.status == 0 && twelve.output == "200", "\(twelve.error)")
            let old = try await curl(["-sS", "-o", "/dev/null", "--tlsv1", "--tls-max", "1.1", "--cacert", certificates.caFile, url], certificates)
            #expect(old.status != 0, "TLS 1.1 must be refused")
            let weak = try await curl(["-sS", "-o", "/dev/null", "--tls-max", "1.2", "--ciphers", "AES128-SHA", "--cacert", certificates.caFile, url], certificates)
            #expect(weak.status != 0, "a suite without forward secrecy must be refused")
            let plain = try await curl(["-sS", "-o", "/dev/null", "--max-time", "5", "http://127.0.0.1:\(port)/health"], certificates)
            #expect(plain.status != 0, "plain HTTP on the TLS port is not served")
            let untrusted = try await curl(["-sS", "-o", "/dev/null", url], certificates)
            #expect(untrusted.status != 0, "the test CA is not a system root")
        }
    }

    @Test("a renewed certificate reloaded: new connections get it, an open connection keeps working; a broken one keeps the old")
    func reload() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        try await withTestServer(configure: { $0.tls = files }) { server in
            let port = server.running.port
            let ready = certificates.directory.appendingPathComponent("ready").path
            let go = certificates.directory.appendingPathComponent("go").path
            let out = certificates.directory.appendingPathComponent("keepalive").path
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("tls_keepalive.py").path
            let held = Task {
                try await ToolRun.run("python3", [script, String(port), certificates.caFile, ready, go, out], in: certificates.directory)
            }
            #expect(try await eventually { FileManager.default.fileExists(atPath: ready) }, "the held connection did not start")

            try await certificates.issue(commonName: "second")
            #expect(try server.running.reloadTLS())
            let fresh = try await curl(["-sS", "-v", "-o", "/dev/null", "--cacert", certificates.caFile, "https://127.0.0.1:\(port)/health"], certificates)
            #expect(fresh.status == 0 && fresh.error.contains("CN=second"), "\(fresh.error)")

            _ = FileManager.default.createFile(atPath: go, contents: nil)
            let run = try await held.value
            let lines = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            #expect(run.status == 0 && lines == "HTTP/1.1 200 OK first\nHTTP/1.1 200 OK first\n", "\(lines) \(run.error)")

            // A renewal whose key does not fit (or a half-written file) keeps serving the last good one.
            try "not a key".write(toFile: certificates.keyFile, atomically: true, encoding: .utf8)
            #expect(throws: TLSFilesError.self) { try server.running.reloadTLS() }
            let still = try await curl(["-sS", "-v", "-o", "/dev/null", "--cacert", certificates.caFile, "https://127.0.0.1:\(port)/health"], certificates)
            #expect(still.status == 0 && still.error.contains("CN=second"), "\(still.error)")
        }
    }

    @Test("a missing file, a key of another certificate and a certificate file without a certificate stop the start with what to fix")
    func badFiles() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let otherKey = certificates.directory.appendingPathComponent("ca.key").path
        for (files, fragment) in [
            (TLSFiles(certificate: "/nonexistent.pem", key: certificates.keyFile), "cannot read the TLS certificate"),
            (TLSFiles(certificate: certificates.certificateFile, key: otherKey), "check that the key belongs to the certificate"),
            (TLSFiles(certificate: certificates.keyFile, key: certificates.keyFile), "cannot read the TLS certificate"),
        ] {
            let error = #expect(throws: TLSFilesError.self) { try ServerTLS.context(files) }
            #expect(error.map { "\($0)".contains(fragment) } == true, "\(String(describing: error))")
        }
    }

    private func curl(_ arguments: [String], _ certificates: TestCertificates) async throws -> ToolRun {
        try await ToolRun.run("curl", arguments, in: certificates.directory)
    }
}
