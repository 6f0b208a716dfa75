import Crypto
import Foundation
import SesameProtocol
import SesameTesting
import Testing

/// `sesame login --password` (native first-party sign-in with MFA), `sesame signup` and
/// `sesame profile`, each run as the real binary against `sesame serve`, with answers typed into
/// stdin and one-time codes read with `sesame outbox` (docs/first-party-and-accounts.md).
@Suite("sesame login --password, signup, profile")
struct PasswordLoginCommandTests {
    /// A served data directory with the `cli-test` client and the user alice.
    struct Served {
        let temp: TempDirectory
        let server: CLIProcess.Started
        let issuer: String
        let password: String
        var data: String { temp.path("data") }

        /// The newest 6-digit code sent to `recipient`, read with `sesame outbox --json`.
        func code(to recipient: String, purpose: String) async throws -> String {
            let outbox = try await CLIProcess.run(
                ["outbox", "--to", recipient, "--purpose", purpose, "--json", "--data-dir", data])
            try #require(outbox.status == 0, "\(outbox)")
            let entries = try JSONSerialization.jsonObject(with: Data(outbox.stdout.utf8)) as? [[String: Any]] ?? []
            let body = try #require(entries.last?["body"] as? String, "no \(purpose) message to \(recipient)")
            return try #require(
                body.split(whereSeparator: { !$0.isNumber }).map(String.init).first { $0.count == 6 })
        }
    }

    func withServe(_ body: (Served) async throws -> Void) async throws {
        let temp = try TempDirectory("pwlogin")
        defer { temp.remove() }
        let data = temp.path("data")
        let password = "alice-\(UUID().uuidString)"
        let addClient = try await CLIProcess.run([
            "client", "add", "cli-test", "--redirect-uri", "http://127.0.0.1/callback", "--first-party",
            "--data-dir", data,
        ])
        try #require(addClient.status == 0, "\(addClient)")
        let addUser = try await CLIProcess.run(
            ["user", "add", "alice", "--email", "alice@example.com", "--password-stdin", "--data-dir", data],
            stdin: password + "\n")
        try #require(addUser.status == 0, "\(addUser)")
        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuerLine = try await server.firstLine(startingWith: "Issuer: ")
            let issuer = String(issuerLine.dropFirst("Issuer: ".count))
            try await body(Served(temp: temp, server: server, issuer: issuer, password: password))
        }
        let status = try await server.terminate()
        #expect(status == 0, "serve should exit cleanly: \(server.stderr())")
    }

    @Test("sesame curl against sesame example-api: the API checks the token itself; a missing scope is 403; with login --dpop the token is bound and curl sends proofs", arguments: [false, true])
    func curlExampleAPI(dpop: Bool) async throws {
        try await withServe { served in
            let config = served.temp.path("config")
            let login = try await CLIProcess.run(
                ["login", "--password", "--username", "alice", "--issuer", served.issuer, "--client-id", "cli-test",
                 "--config-dir", config] + (dpop ? ["--dpop"] : []), stdin: "\(served.password)\n")
            try #require(login.status == 0, "\(login)")
            let token = try await CLIProcess.run(["token"], environment: ["SESAME_CONFIG_DIR": config])
            let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let payload = accessToken.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode(String($0)) }
            let claims = payload.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            #expect((claims?["cnf"] != nil) == dpop, "\(token)")
            let api = try CLIProcess.Started(["example-api", "--issuer", served.issuer, "--port", "0"])
            try await api.whileRunning {
                let base = String(try await api.firstLine(startingWith: "Example API: ").dropFirst("Example API: ".count))
                let env = ["SESAME_CONFIG_DIR": config]
                let me = try await CLIProcess.run(["curl", "--allow-origin", base, "\(base)/v1/me"], environment: env)
                try #require(me.status == 0, "\(me)")
                let caller = try JSONSerialization.jsonObject(with: Data(me.stdout.utf8)) as? [String: Any]
                #expect(caller?["client_id"] as? String == "cli-test")
                #expect((caller?["scope"] as? [String])?.contains("openid") == true)
                let admin = try await CLIProcess.run(["curl", "--allow-origin", base, "\(base)/v1/admin"], environment: env)
                #expect(admin.status == 22, "\(admin)")
                #expect(admin.stdout.contains("insufficient_scope"))
                // Without --allow-origin the token is not sent to the API at all.
                let refused = try await CLIProcess.run(["curl", "\(base)/v1/me"], environment: env)
                #expect(refused.status != 0 && !refused.stdout.contains("client_id"), "\(refused)")
            }
            _ = try await api.terminate()
        }
    }

    @Test("password sign-in from stdin, profile, then an emailed code as second factor")
    func passwordThenEmailCode() async throws {
        try await withServe { served in
            let config = served.temp.path("config")
            let login = try await CLIProcess.run(
                ["login", "--password", "--issuer", served.issuer, "--client-id", "cli-test", "--config-dir", config],
                stdin: "alice\n\(served.password)\n")
            try #require(login.status == 0, "\(login)")
            #expect(login.stdout.contains("Signed in as") && login.stdout.contains("alice@example.com"))
            #expect(!login.stdout.contains(served.password) && !login.stderr.contains(served.password))
            let env = ["SESAME_CONFIG_DIR": config]

            let profile = try await CLIProcess.run(["profile", "--json"], environment: env)
            try #require(profile.status == 0, "\(profile)")
            let claims = try JSONSerialization.jsonObject(with: Data(profile.stdout.utf8)) as? [String: Any]
            #expect(claims?["email"] as? String == "alice@example.com")

            let set = try await CLIProcess.run(
                ["profile", "set", "--name", "Alice Liddell", "--locale", "en-GB"], environment: env)
            try #require(set.status == 0, "\(set)")
            #expect(set.stdout.contains("Alice Liddell") && set.stdout.contains("en-GB"))
            let shown = try await CLIProcess.run(["profile"], environment: env)
            #expect(shown.status == 0 && shown.stdout.contains("Alice Liddell"), "\(shown)")

            let invalid = try await CLIProcess.run(["profile", "set", "--birthdate", "31.12.1999"], environment: env)
            #expect(invalid.status == 1, "\(invalid)")
            #expect(invalid.stderrLines.count == 1 && invalid.stderr.contains("birthdate"), "\(invalid)")
            let nothing = try await CLIProcess.run(["profile", "set"], environment: env)
            #expect(nothing.status == 64, "\(nothing)")

            // Turn on email codes with the account's own token, then sign in again.
            let enable = try await CLIProcess.run(
                ["curl", "-X", "POST", "\(served.issuer)/api/mfa/email", "-H", "Content-Type: application/json", "-d", "{}"],
                environment: env)
            try #require(enable.status == 0, "\(enable)")
            let logout = try await CLIProcess.run(["logout", "--all"], environment: env)
            try #require(logout.status == 0, "\(logout)")

            let mfa = try InteractiveCLI(["login", "--password", "--username", "alice"], environment: env)
            try await mfa.waitForPrompt("Password for alice")
            try mfa.type(served.password)
            try await mfa.waitForPrompt("Code: ")
            #expect(mfa.stderr().contains("A second factor is required"))
            #expect(mfa.stderr().contains("a***@example.com"), "where the code went, masked: \(mfa.stderr())")
            let code = try await served.code(to: "alice@example.com", purpose: "mfa_code")
            try mfa.type(code == "000000" ? "111111" : "000000")
            try await mfa.waitForPrompt("Code: ", count: 2)
            #expect(mfa.stderr().contains("4 attempts left"), "\(mfa.stderr())")
            try mfa.type(code)
            let result = try await mfa.finish()
            try #require(result.status == 0, "\(result)")
            #expect(result.stdout.contains("Signed in as"))
            #expect(!result.stdout.contains(code) && !result.stderr.contains(code))

            let token = try await CLIProcess.run(["token", "--json"], environment: env)
            try #require(token.status == 0, "\(token)")
            let tokenJSON = try JSONSerialization.jsonObject(with: Data(token.stdout.utf8)) as? [String: Any]
            let access = try #require(tokenJSON?["access_token"] as? String)
            #expect(JWTParts.payload(access)["acr"] as? String == "urn:sesame:acr:mfa")
        }
    }

    @Test("TOTP chosen from stdin among several methods; --mfa-method must be offered")
    func totpChosenFromStdin() async throws {
        try await withServe { served in
            let config = served.temp.path("config")
            let env = ["SESAME_CONFIG_DIR": config]
            let login = try await CLIProcess.run(
                [
                    "login", "--password", "--username", "alice", "--issuer", served.issuer, "--client-id", "cli-test",
                    "--config-dir", config,
                ], stdin: "\(served.password)\n")
            try #require(login.status == 0, "\(login)")
            let enrol = try await CLIProcess.run(
                ["curl", "-X", "POST", "\(served.issuer)/api/mfa/totp", "-H", "Content-Type: application/json", "-d", "{}"],
                environment: env)
            try #require(enrol.status == 0, "\(enrol)")
            let secret = try #require(
                (try JSONSerialization.jsonObject(with: Data(enrol.stdout.utf8)) as? [String: Any])?["secret"] as? String)
            let step = Int64(Date().timeIntervalSince1970) / 30
            let confirm = try await CLIProcess.run(
                [
                    "curl", "-X", "POST", "\(served.issuer)/api/mfa/totp/confirm", "-H", "Content-Type: application/json",
                    "-d", #"{"code":"\#(try totp(secret, step: step))"}"#,
                ], environment: env)
            try #require(confirm.status == 0, "\(confirm)")
            let email = try await CLIProcess.run(
                ["curl", "-X", "POST", "\(served.issuer)/api/mfa/email", "-H", "Content-Type: application/json", "-d", "{}"],
                environment: env)
            try #require(email.status == 0, "\(email)")
            _ = try await CLIProcess.run(["logout", "--all"], environment: env)

            let unavailable = try await CLIProcess.run(
                ["login", "--password", "--username", "alice", "--mfa-method", "sms"], environment: env,
                stdin: "\(served.password)\n")
            #expect(unavailable.status == 1, "\(unavailable)")
            #expect(unavailable.stderr.contains("--mfa-method sms is not available"), "\(unavailable)")

            // Answers on stdin: password, method (by name), and a code of a step after the one the
            // enrolment used, computed now: the step after it while that is in the server's ±1
            // window, else the current one (a slow run may have crossed several 30 s boundaries).
            let loginStep = max(step + 1, Int64(Date().timeIntervalSince1970) / 30)
            let result = try await CLIProcess.run(
                ["login", "--password", "--username", "alice", "--json"], environment: env,
                stdin: "\(served.password)\ntotp\n\(try totp(secret, step: loginStep))\n")
            try #require(result.status == 0, "\(result)")
            #expect(result.stderr.contains("totp (authenticator app)"))
            #expect(result.stderr.contains("email (code by email)"))
            let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(summary?["email"] as? String == "alice@example.com")
            #expect(try await served.messageCount(to: "alice@example.com", purpose: "mfa_code") == 0, "TOTP sends nothing")
        }
    }

    @Test("wrong password is one error line; --mfa-method needs --password")
    func errors() async throws {
        try await withServe { served in
            let config = served.temp.path("config")
            let wrong = try await CLIProcess.run(
                ["login", "--password", "--issuer", served.issuer, "--client-id", "cli-test", "--config-dir", config],
                stdin: "alice\nnot-the-password\n")
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.stderrLines.last?.hasPrefix("error: ") == true)
            #expect(wrong.stderr.contains("invalid_grant"), "\(wrong)")
            let empty = try await CLIProcess.run(
                ["login", "--password", "--issuer", served.issuer, "--client-id", "cli-test", "--config-dir", config],
                stdin: "")
            #expect(empty.status == 1 && empty.stderr.contains("stdin ended"), "\(empty)")
            let usage = try await CLIProcess.run(["login", "--mfa-method", "totp", "--config-dir", config])
            #expect(usage.status == 64, "\(usage)")
        }
    }

    @Test("signup, confirm the emailed code, then sign in with the password")
    func signUpThenLogin() async throws {
        try await withServe { served in
            let config = served.temp.path("config")
            let password = "a long passphrase for bea"
            let signup = try InteractiveCLI([
                "signup", "--issuer", served.issuer, "--client-id", "cli-test", "--email", "bea@example.com",
                "--name", "Bea Example", "--config-dir", config,
            ])
            try await signup.waitForPrompt("Password for bea@example.com")
            try signup.type(password)
            try await signup.waitForPrompt("Verification code: ")
            try signup.type(try await served.code(to: "bea@example.com", purpose: "email_verification"))
            let created = try await signup.finish()
            try #require(created.status == 0, "\(created)")
            #expect(created.stdout.contains("Email bea@example.com verified"))
            #expect(!created.stdout.contains(password) && !created.stderr.contains(password))

            // The issuer and client id were remembered.
            let login = try await CLIProcess.run(
                ["login", "--password", "--username", "bea@example.com", "--config-dir", config],
                stdin: "\(password)\n")
            try #require(login.status == 0, "\(login)")
            let profile = try await CLIProcess.run(["profile", "--json", "--config-dir", config])
            let claims = try JSONSerialization.jsonObject(with: Data(profile.stdout.utf8)) as? [String: Any]
            #expect(claims?["name"] as? String == "Bea Example")
            #expect(claims?["email_verified"] as? Bool == true)

            let again = try await CLIProcess.run(
                ["signup", "--email", "bea@example.com", "--no-confirm", "--config-dir", config], stdin: "another long passphrase\n")
            #expect(again.status == 1, "\(again)")
            #expect(again.stderrLines.last?.hasPrefix("error: the server rejected the request: email:") == true, "\(again)")
        }
    }

    // MARK: Helpers

    /// RFC 6238 with HMAC-SHA-1, 6 digits, 30 s steps; RFC 4648 base32 secret.
    func totp(_ base32: String, step: Int64) throws -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var buffer: UInt32 = 0
        var bits = 0
        var key = Data()
        for character in base32.uppercased() where character != "=" {
            let index = try #require(alphabet.firstIndex(of: character))
            buffer = (buffer << 5) | UInt32(index)
            bits += 5
            if bits >= 8 {
                bits -= 8
                key.append(UInt8((buffer >> UInt32(bits)) & 0xff))
            }
        }
        var counter = UInt64(step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value =
            ((UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
                | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])) % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }
}

extension PasswordLoginCommandTests.Served {
    func messageCount(to recipient: String, purpose: String) async throws -> Int {
        let outbox = try await CLIProcess.run(
            ["outbox", "--to", recipient, "--purpose", purpose, "--json", "--data-dir", data])
        try #require(outbox.status == 0, "\(outbox)")
        return (try JSONSerialization.jsonObject(with: Data(outbox.stdout.utf8)) as? [Any])?.count ?? -1
    }
}
