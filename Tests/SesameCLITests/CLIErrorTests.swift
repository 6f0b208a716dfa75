import Crypto
import Foundation
import SesameProtocol
import Testing

/// Failures a user can hit: one clear line on stderr and a non-zero exit status.
@Suite("sesame errors")
struct CLIErrorTests {
    @Test("an unknown flag is a short usage error")
    func unknownFlag() async throws {
        let result = try await CLIProcess.run(["login", "--no-such-flag"])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--no-such-flag"))
        #expect(result.stderrLines.count <= 4, "\(result)")
    }

    @Test("an unreachable issuer is exactly one error line")
    func unreachableIssuer() async throws {
        let temp = try TempDirectory("unreachable")
        defer { temp.remove() }
        let result = try await CLIProcess.run([
            "login", "--issuer", "http://127.0.0.1:1", "--client-id", "x",
            "--config-dir", temp.path("config"),
        ])
        #expect(result.status != 0)
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stdout.isEmpty)
        // A failed login remembers nothing.
        #expect(!FileManager.default.fileExists(atPath: temp.path("config/config.json")))
    }

    @Test("a non-https issuer is refused before any network use")
    func insecureIssuer() async throws {
        let temp = try TempDirectory("insecure")
        defer { temp.remove() }
        let result = try await CLIProcess.run([
            "login", "--issuer", "http://id.example.com", "--client-id", "x",
            "--config-dir", temp.path("config"),
        ])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("https"), "\(result)")
    }

    @Test("client commands before login say to sign in", arguments: [
        ["token"], ["whoami"], ["curl", "http://127.0.0.1:9/"], ["switch", "someone"], ["logout"],
    ])
    func notSignedIn(arguments: [String]) async throws {
        let temp = try TempDirectory("signed-out")
        defer { temp.remove() }
        let result = try await CLIProcess.run(
            arguments, environment: ["XDG_CONFIG_HOME": temp.url.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderr.contains("sesame login"), "\(result)")
    }

    @Test("accounts before login is an empty list, in the XDG config directory")
    func accountsBeforeLogin() async throws {
        let temp = try TempDirectory("xdg")
        defer { temp.remove() }
        let result = try await CLIProcess.run(
            ["accounts", "--json"], environment: ["XDG_CONFIG_HOME": temp.url.path])
        #expect(result.status == 0, "\(result)")
        let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
        #expect(list?.isEmpty == true)
    }

    @Test("user add without a password on a non-terminal stdin asks for --password-stdin")
    func missingPassword() async throws {
        let temp = try TempDirectory("nopassword")
        defer { temp.remove() }
        let result = try await CLIProcess.run([
            "user", "add", "carol", "--email", "carol@example.com", "--data-dir", temp.path("data"),
        ])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("--password-stdin"), "\(result)")
    }

    @Test("the password grant cannot be registered")
    func passwordGrant() async throws {
        let temp = try TempDirectory("grant")
        defer { temp.remove() }
        let result = try await CLIProcess.run([
            "client", "add", "legacy", "--grant", "password", "--data-dir", temp.path("data"),
        ])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("RFC 9700"), "\(result)")
    }

    @Test("client add --profile fapi2: refused without keys or with an unknown profile; with keys it is stored with PAR, DPoP and ES256")
    func fapi2Profile() async throws {
        let temp = try TempDirectory("fapi2")
        defer { temp.remove() }
        let noKeys = try await CLIProcess.run([
            "client", "add", "bank", "--redirect-uri", "https://bank.example.com/cb", "--confidential", "--profile", "fapi2",
            "--data-dir", temp.path("data"),
        ])
        #expect(noKeys.status == 1 && noKeys.stderr.contains("private_key_jwt"), "\(noKeys)")
        let unknown = try await CLIProcess.run([
            "client", "add", "bank", "--redirect-uri", "https://bank.example.com/cb", "--profile", "fapi3",
            "--data-dir", temp.path("data"),
        ])
        #expect(unknown.status != 0 && unknown.stderr.contains("fapi2"), "\(unknown)")
        let point = P256.Signing.PrivateKey().publicKey.x963Representation
        let jwks = temp.path("keys.json")
        try Data(
            #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"\#(Base64URL.encode(point.dropFirst().prefix(32)))","y":"\#(Base64URL.encode(point.suffix(32)))"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: jwks))
        let added = try await CLIProcess.run([
            "client", "add", "bank", "--redirect-uri", "https://bank.example.com/cb", "--profile", "fapi2",
            "--jwks-file", jwks, "--data-dir", temp.path("data"), "--json",
        ])
        #expect(added.status == 0, "\(added)")
        let rs256 = try await CLIProcess.run([
            "client", "add", "bank2", "--redirect-uri", "https://bank.example.com/cb", "--profile", "fapi2",
            "--jwks-file", jwks, "--id-token-alg", "RS256", "--data-dir", temp.path("data"),
        ])
        #expect(rs256.status == 1 && rs256.stderr.contains("RS256"), "\(rs256)")
    }

    @Test("the device code grant is registered by its short or full name; an unknown grant is refused with the list", arguments: [
        "device-code", "device_code", "urn:ietf:params:oauth:grant-type:device_code",
    ])
    func deviceCodeGrant(name: String) async throws {
        let temp = try TempDirectory("grant")
        defer { temp.remove() }
        let added = try await CLIProcess.run([
            "client", "add", "tv", "--grant", name, "--data-dir", temp.path("data"), "--json",
        ])
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout.contains("urn:ietf:params:oauth:grant-type:device_code"), "\(added)")
        let unknown = try await CLIProcess.run([
            "client", "add", "other", "--grant", "ciba", "--data-dir", temp.path("data"),
        ])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown grant type") && unknown.stderr.contains("device-code"), "\(unknown)")
    }

    @Test("serve rejects an impossible port")
    func badPort() async throws {
        let result = try await CLIProcess.run(["serve", "--port", "70000"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--port"))
    }
}
