import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sesame outbox` reads the messages a running `sesame serve` queued, and `sesame serve`
/// checks its SMTP options.
@Suite("sesame outbox")
struct OutboxCommandTests {
    @Test("a sign-up's verification code shows up in `sesame outbox`, as text and as JSON, filtered by --to")
    func showsQueuedMessages() async throws {
        let temp = try TempDirectory("outbox")
        defer { temp.remove() }
        let data = temp.path("data")
        let empty = try await CLIProcess.run(["outbox", "--data-dir", data])
        #expect(empty.status == 0, "\(empty)")
        #expect(empty.stdout.contains("The outbox is empty."))

        let seed = temp.url.appendingPathComponent("seed.json")
        try Data(#"{"clients": [{"client_id": "app", "redirect_uris": ["http://127.0.0.1/callback"]}]}"#.utf8)
            .write(to: seed)
        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data, "--config", seed.path])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            _ = try await server.firstLine(startingWith: "Press Ctrl-C")
            for email in ["carol@example.com", "dave@example.com"] {
                var request = URLRequest(url: try #require(URL(string: "\(issuer)/api/signup")))
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = try JSONSerialization.data(withJSONObject: [
                    "client_id": "app", "email": email, "password": "a long enough password",
                ])
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 201)
            }

            let json = try await CLIProcess.run(["outbox", "--to", "carol@example.com", "--json", "--data-dir", data])
            try #require(json.status == 0, "\(json)")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(entries.count == 1)
            let entry = try #require(entries.first)
            #expect(entry["to"] as? String == "carol@example.com")
            #expect(entry["channel"] as? String == "email")
            #expect(entry["purpose"] as? String == "email_verification")
            #expect(entry["subject"] as? String == "Confirm your email address")
            #expect(entry["delivered_at"] == nil)
            let body = try #require(entry["body"] as? String)
            #expect(body.contains(/\b\d{6}\b/), "\(body)")

            let text = try await CLIProcess.run(["outbox", "--data-dir", data])
            try #require(text.status == 0, "\(text)")
            #expect(text.stdout.contains("email to carol@example.com  [email_verification, queued]"))
            #expect(text.stdout.contains("email to dave@example.com"))
            #expect(text.stdout.contains("Subject: Confirm your email address"))
            #expect(text.stdout.contains(body))

            let none = try await CLIProcess.run(["outbox", "--purpose", "password_reset", "--data-dir", data])
            #expect(none.stdout.contains("No matching messages."))
        }
        #expect(try await server.terminate() == 0)
    }

    @Test("serve refuses incomplete or unsafe SMTP options with one error line")
    func smtpOptions() async throws {
        let temp = try TempDirectory("smtp-options")
        defer { temp.remove() }
        let data = temp.path("data")
        let noFrom = try await CLIProcess.run(["serve", "--port", "0", "--data-dir", data, "--smtp-host", "127.0.0.1"])
        #expect(noFrom.status == 1)
        #expect(noFrom.stderrLines.count == 1 && noFrom.stderr.contains("--smtp-from"), "\(noFrom)")

        let noPassword = try await CLIProcess.run([
            "serve", "--port", "0", "--data-dir", data, "--smtp-host", "127.0.0.1", "--smtp-from",
            "no-reply@example.com", "--smtp-username", "relay",
        ])
        #expect(noPassword.status == 1)
        #expect(noPassword.stderr.contains("SESAME_SMTP_PASSWORD"), "\(noPassword)")

        let remote = try await CLIProcess.run(
            [
                "serve", "--port", "0", "--data-dir", data, "--smtp-host", "smtp.example.com", "--smtp-from",
                "no-reply@example.com", "--smtp-username", "relay",
            ], environment: ["SESAME_SMTP_PASSWORD": "relay-secret"])
        #expect(remote.status == 1)
        #expect(remote.stderrLines.count == 1 && remote.stderr.contains("unencrypted"), "\(remote)")
        #expect(!remote.stderr.contains("relay-secret"))
    }
}
