import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `sesame serve --tls-certificate FILE --tls-key FILE` as a real process (issue #48): it prints an
/// https issuer, curl gets discovery over TLS, `kill -HUP` serves a renewed certificate and keeps
/// the process up; a lone `--tls-key` or an unreadable file is one line saying what to fix.
@Suite(
    "sesame serve over TLS",
    .enabled(
        if: ["openssl", "curl"].allSatisfy(ToolRun.available) || ProcessInfo.processInfo.environment["CI"] == "true",
        "needs openssl and curl"))
struct ServeTLSCommandTests {
    @Test("HTTPS from the command line; SIGHUP reloads the renewed certificate")
    func serveAndReload() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let temp = try TempDirectory("tls")
        defer { temp.remove() }
        let server = try CLIProcess.Started([
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--tls-certificate", certificates.certificateFile,
            "--tls-key", certificates.keyFile,
        ])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            #expect(issuer.hasPrefix("https://127.0.0.1:"))
            let health = issuer + "/health"
            let first = try await ToolRun.run("curl", ["-sS", "-v", "-o", "/dev/null", "--cacert", certificates.caFile, health], in: certificates.directory)
            #expect(first.status == 0 && first.error.contains("CN=first"), "\(first.error)")

            try await certificates.issue(commonName: "second")
            server.send(SIGHUP)
            var subject = ""
            for _ in 0..<100 where !subject.contains("CN=second") {
                subject = try await ToolRun.run("curl", ["-sS", "-v", "-o", "/dev/null", "--cacert", certificates.caFile, health], in: certificates.directory).error
                if !subject.contains("CN=second") { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(subject.contains("CN=second"), "the reloaded certificate was not served: \(server.stderr())")
        }
        #expect(try await server.terminate() == 0, "\(server.stderr())")
    }

    @Test("mutual TLS from the command line: a client registered with --tls-subject gets a certificate-bound token over curl --cert; --tls-client-ca without --mtls and an unreadable CA file are refused")
    func mutualTLS() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await certificates.issueClient("payments", subject: "/O=Example Bank/CN=payments")
        let temp = try TempDirectory("mtls")
        defer { temp.remove() }
        let added = try await CLIProcess.run([
            "client", "add", "bank-backend", "--grant", "client-credentials", "--scope", "api.read", "--tls-subject",
            "CN=payments,O=Example Bank", "--certificate-bound", "--data-dir", temp.path("data"),
        ])
        #expect(added.status == 0 && added.stdout.contains("tls_client_auth, certificate-bound"), "\(added.stdout) \(added.stderr)")
        let badSubject = try await CLIProcess.run(["client", "add", "x", "--tls-subject", "payments", "--data-dir", temp.path("data")])
        #expect(badSubject.status != 0 && badSubject.stderr.contains("neither a subject DN nor a SAN"), "\(badSubject.stderr)")

        let server = try CLIProcess.Started([
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--tls-certificate", certificates.certificateFile,
            "--tls-key", certificates.keyFile, "--mtls", "--tls-client-ca", certificates.caFile,
        ])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let token = try await ToolRun.run(
                "curl",
                ["-sS", "--cacert", certificates.caFile, "--cert", certificates.path("payments.pem"), "--key", certificates.path("payments.key"),
                 "-d", "grant_type=client_credentials", "-d", "client_id=bank-backend", "\(issuer)/token"],
                in: certificates.directory)
            #expect(token.status == 0 && token.output.contains("\"access_token\""), "\(token.output) \(token.error)")
            let without = try await ToolRun.run(
                "curl", ["-sS", "--cacert", certificates.caFile, "-d", "grant_type=client_credentials", "-d", "client_id=bank-backend", "\(issuer)/token"],
                in: certificates.directory)
            #expect(without.output.contains("invalid_client"), "\(without.output)")
        }
        #expect(try await server.terminate() == 0, "\(server.stderr())")

        let lone = try await CLIProcess.run(["serve", "--port", "0", "--tls-client-ca", certificates.caFile])
        #expect(lone.status != 0 && lone.stderr.contains("add --mtls"), "\(lone.stderr)")
        let unreadable = try await CLIProcess.run([
            "serve", "--port", "0", "--data-dir", temp.path("data2"), "--mtls", "--tls-client-ca", "/nonexistent-ca.pem",
            "--trusted-proxy", "127.0.0.1",
        ])
        #expect(unreadable.status != 0 && unreadable.stderr.contains("cannot read the client CA certificates /nonexistent-ca.pem"), "\(unreadable.stderr)")
        let plain = try await CLIProcess.run(["serve", "--port", "0", "--data-dir", temp.path("data3"), "--mtls"])
        #expect(plain.status != 0 && plain.stderr.contains("--mtls has no certificate to read"), "\(plain.stderr)")
    }

    @Test("--tls-key without --tls-certificate, and an unreadable certificate, are refused with what to fix")
    func refusals() async throws {
        let lone = try await CLIProcess.run(["serve", "--port", "0", "--tls-key", "/tmp/none.key"])
        #expect(lone.status != 0 && lone.stderr.contains("--tls-certificate and --tls-key go together"), "\(lone.stderr)")
        let temp = try TempDirectory("tls-bad")
        defer { temp.remove() }
        let missing = try await CLIProcess.run([
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--tls-certificate", "/nonexistent.pem", "--tls-key", "/nonexistent.key",
        ])
        #expect(missing.status != 0 && missing.stderr.contains("cannot read the TLS certificate /nonexistent.pem"), "\(missing.stderr)")
    }

    /// `sesame login --pin … --cacert …` over the server's own TLS: the pins and CA are
    /// remembered, so `token` and `curl` pin too; a wrong `--pin` is refused before anything is
    /// sent, with the certificate_pin_mismatch explanation; one pin alone is refused at parse time.
    @Test("login --pin --cacert signs in over TLS and remembers them for token and curl; a wrong pin or a single pin is refused")
    func pinnedLogin() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let temp = try TempDirectory("tlspin")
        defer { temp.remove() }
        let data = temp.path("data")
        let password = "alice-\(UUID().uuidString)"
        let client = try await CLIProcess.run([
            "client", "add", "cli-test", "--redirect-uri", "http://127.0.0.1/callback", "--first-party", "--data-dir", data,
        ])
        try #require(client.status == 0, "\(client)")
        let user = try await CLIProcess.run(
            ["user", "add", "alice", "--email", "alice@example.com", "--password-stdin", "--data-dir", data], stdin: password + "\n")
        try #require(user.status == 0, "\(user)")
        let pinRun = try await ToolRun.run(
            "sh", ["-c", "openssl x509 -in '\(certificates.certificateFile)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"],
            in: certificates.directory)
        let leafPin = "sha256/" + pinRun.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let backup = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        let wrong = "sha256/" + Data(repeating: 8, count: 32).base64EncodedString()
        let server = try CLIProcess.Started([
            "serve", "--port", "0", "--data-dir", data, "--tls-certificate", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let config = temp.path("config")
            let login = try await CLIProcess.run(
                ["login", "--password", "--username", "alice", "--issuer", issuer, "--client-id", "cli-test", "--config-dir", config,
                 "--pin", leafPin, "--pin", backup, "--cacert", certificates.caFile],
                stdin: password + "\n")
            try #require(login.status == 0, "\(login)")
            let profile = try String(contentsOfFile: config + "/config.json", encoding: .utf8)
            #expect(profile.contains(backup.replacingOccurrences(of: "/", with: "\\/")) || profile.contains(backup), "\(profile)")

            let token = try await CLIProcess.run(["token", "--config-dir", config])
            #expect(token.status == 0 && token.stdout.split(separator: ".").count == 3, "\(token)")
            let userinfo = try await CLIProcess.run(["curl", issuer + "/userinfo", "--config-dir", config])
            #expect(userinfo.status == 0 && userinfo.stdout.contains("\"sub\""), "\(userinfo)")

            // A stored, valid token needs no network; a refresh does, and the wrong pins stop it.
            let refused = try await CLIProcess.run(["token", "--refresh", "--config-dir", config, "--pin", wrong, "--pin", backup])
            #expect(refused.status != 0 && refused.stderr.contains("matches none of the app's pins"), "\(refused)")
            let refusedCurl = try await CLIProcess.run(["curl", issuer + "/userinfo", "--config-dir", config, "--pin", wrong, "--pin", backup])
            #expect(refusedCurl.status != 0 && refusedCurl.stderr.contains("matches none of the app's pins"), "\(refusedCurl)")
            // The refused runs changed nothing remembered: the right pins still work.
            #expect(try await CLIProcess.run(["token", "--refresh", "--config-dir", config]).status == 0)
            let single = try await CLIProcess.run(["curl", issuer + "/userinfo", "--config-dir", config, "--pin", leafPin])
            #expect(single.status != 0 && single.stderr.contains("at least two"), "\(single)")
        }
        #expect(try await server.terminate() == 0, "\(server.stderr())")
    }
}
