import Crypto
import Foundation
import SesameTesting
import Testing

/// `sesame provider add|list|remove` and `sesame login --provider` (docs/federation.md), as the
/// real binary against `sesame serve`, with a provider known by its PEM key.
@Suite("sesame provider, login --provider")
struct ProviderCommandTests {
    @Test("provider add checks each field, list shows them, login --provider signs in with the provider's token, remove unlinks")
    func providers() async throws {
        let temp = try TempDirectory("provider")
        defer { temp.remove() }
        let data = temp.path("data")
        let key = P256.Signing.PrivateKey()
        let pem = temp.url.appendingPathComponent("acme.pem")
        try Data(key.publicKey.pemRepresentation.utf8).write(to: pem)

        let bad = try await CLIProcess.run([
            "provider", "add", "evil", "--issuer", "http://evil.example", "--audience", "x", "--jwks-uri", "https://evil.example/jwks",
            "--data-dir", data,
        ])
        #expect(bad.status != 0 && bad.stderr.contains("issuer") && bad.stderr.contains("https"), "\(bad)")
        let noAudience = try await CLIProcess.run(["provider", "add", "g", "--kind", "google", "--data-dir", data])
        #expect(noAudience.status != 0 && noAudience.stderr.contains("audiences"), "\(noAudience)")
        let kind = try await CLIProcess.run(["provider", "add", "fb", "--kind", "myspace", "--audience", "x", "--data-dir", data])
        #expect(kind.status != 0 && kind.stderr.contains("oidc, google, apple"), "\(kind)")
        let google = try await CLIProcess.run(["provider", "add", "google", "--kind", "google", "--audience", "web", "--data-dir", data])
        #expect(google.status == 0 && google.stdout.contains("https://accounts.google.com"), "known issuer: \(google)")
        let acme = try await CLIProcess.run([
            "provider", "add", "acme", "--issuer", "https://id.acme.test", "--audience", "cli-app", "--public-key-file", pem.path,
            "--data-dir", data,
        ])
        try #require(acme.status == 0, "\(acme)")
        let list = try await CLIProcess.run(["provider", "list", "--json", "--data-dir", data])
        #expect(list.stdout.contains("\"id\" : \"acme\"") && list.stdout.contains("\"id\" : \"google\""), "\(list)")
        let client = try await CLIProcess.run([
            "client", "add", "cli-app", "--first-party", "--redirect-uri", "http://127.0.0.1/callback", "--grant", "authorization_code",
            "--grant", "refresh_token", "--grant", "token-exchange", "--data-dir", data,
        ])
        try #require(client.status == 0, "\(client)")

        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let tokenFile = temp.url.appendingPathComponent("token.jwt")
            try Data(try Self.token(key: key).utf8).write(to: tokenFile)
            let login = try await CLIProcess.run(
                ["login", "--issuer", issuer, "--client-id", "cli-app", "--provider", "acme", "--provider-token-file", tokenFile.path],
                environment: ["SESAME_CONFIG_DIR": temp.path("config")])
            #expect(login.status == 0 && login.stdout.contains("pat@acme.test"), "\(login)")
            let unknown = try await CLIProcess.run(
                ["login", "--provider", "nobody", "--provider-token-file", tokenFile.path],
                environment: ["SESAME_CONFIG_DIR": temp.path("config2")])
            #expect(unknown.status != 0, "\(unknown)")
        }
        #expect(try await server.terminate() == 0)
        let removed = try await CLIProcess.run(["provider", "remove", "acme", "--data-dir", data])
        #expect(removed.status == 0, "\(removed)")
        let again = try await CLIProcess.run(["provider", "remove", "acme", "--data-dir", data])
        #expect(again.status != 0 && again.stderr.contains("sesame provider list"), "\(again)")
    }

    /// An ES256 ID token of the provider (RFC 7515 compact serialization, signed by hand).
    static func token(key: P256.Signing.PrivateKey) throws -> String {
        func b64(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let now = Int(Date().timeIntervalSince1970)
        let header = b64(Data(#"{"alg":"ES256","typ":"JWT"}"#.utf8))
        let payload = b64(
            Data(
                #"{"iss":"https://id.acme.test","sub":"pat-1","aud":"cli-app","exp":\#(now + 600),"iat":\#(now),"email":"pat@acme.test","email_verified":true,"name":"Pat"}"#
                    .utf8))
        let signature = try key.signature(for: Data("\(header).\(payload)".utf8))
        return "\(header).\(payload).\(b64(signature.rawRepresentation))"
    }
}
