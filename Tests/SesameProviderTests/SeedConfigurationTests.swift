import Foundation
import Testing
import StoreTesting
@testable import SesameProvider

@Suite("Seed configuration: loading and errors")
struct SeedConfigurationTests {
    static let valid = """
        {"clients":[{"client_id":"demo","name":"Demo","secret":"0123456789abcdef0123456789abcdef-secret",
          "redirect_uris":["http://127.0.0.1/callback"],"post_logout_redirect_uris":[],
          "grant_types":["authorization_code","refresh_token"],"scopes":["openid","profile","email","offline_access"],
          "token_endpoint_auth_method":"client_secret_basic","id_token_signing_alg":"ES256","access_token_lifetime":600,
          "id_token_lifetime":300,"refresh_token_lifetime":2592000},
          {"client_id":"native","redirect_uris":["com.example.app:/cb"]}],
         "users":[{"username":"alice","email":"alice@example.com","password":"wonderland-1865","email_verified":true,
          "name":"Alice Example","given_name":"Alice","family_name":"Example"}]}
        """

    /// Writes `json` to a file in the sandbox and loads it, returning the error's description.
    static func loadError(_ json: String) throws -> (String, SeedConfigurationError?) {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let file = sandbox.directory.appendingPathComponent("seed.json")
        try Data(json.utf8).write(to: file)
        do {
            _ = try SeedConfiguration.load(from: file)
            return (file.path, nil)
        } catch let error as SeedConfigurationError {
            return (file.path, error)
        }
    }

    @Test("a valid file loads with every field")
    func loadsValidFile() throws {
        let seed = try SeedConfiguration.decode(Data(Self.valid.utf8), source: "seed.json")
        #expect(seed.clients.count == 2)
        let demo = try #require(seed.clients.first)
        #expect(demo.clientID == "demo")
        #expect(demo.grantTypes == ["authorization_code", "refresh_token"])
        #expect(demo.idTokenSigningAlg == "ES256")
        #expect(demo.accessTokenLifetime == 600)
        let alice = try #require(seed.users.first)
        #expect(alice.givenName == "Alice")
        #expect(alice.emailVerified == true)
    }

    @Test(
        "errors name the file, the entry and the field",
        arguments: [
            (#"{"clients":[{"client_id":"a","redirect_uris":["http://127.0.0.1/cb"],"grant_types":["password"]}]}"#,
             "clients[0].grant_types", "RFC 9700 §2.4"),
            (#"{"clients":[{"client_id":"a","redirect_uri":["http://127.0.0.1/cb"]}]}"#,
             "clients[0].redirect_uri", "not a known key"),
            (#"{"clients":[{"client_id":"a","redirect_uris":["http://example.com/cb"]}]}"#,
             "clients[0].redirect_uris[0]", "https"),
            (#"{"clients":[{"client_id":"a","redirect_uris":["https://example.com/cb#x"]}]}"#,
             "clients[0].redirect_uris[0]", "fragment"),
            (#"{"clients":[{"client_id":"a","redirect_uris":["https://a.example/cb"],"grant_types":["client_credentials"]}]}"#,
             "clients[0].grant_types", "confidential"),
            (#"{"clients":[{"client_id":"a","redirect_uris":["https://a.example/cb"],"id_token_signing_alg":"none"}]}"#,
             "clients[0].id_token_signed_response_alg", "RS256 or ES256"),
            (#"{"clients":[{"name":"no id"}]}"#, "clients[0].client_id", "required"),
            (#"{"clients":[{"client_id":"a","redirect_uris":"https://a.example/cb"}]}"#,
             "clients[0].redirect_uris", "type"),
            (#"{"users":[{"username":"bob","email":"bob@example.com","password":"short"}]}"#,
             "users[0].password", "at least 8"),
            (#"{"users":[{"username":"bob","email":"bob@example.com"},{"username":"BOB","email":"b2@example.com"}]}"#,
             "users[1].username", "unique"),
            (#"{"users":[{"username":"bob","email":"not-an-email"}]}"#, "users[0].email", "name@example.com"),
        ])
    func namedErrors(json: String, path: String, hint: String) throws {
        let (file, error) = try Self.loadError(json)
        let failure = try #require(error)
        #expect(failure.file == file)
        #expect(failure.path == path)
        #expect(failure.description.hasPrefix("\(file): \(path): "))
        #expect(failure.description.contains(hint))
    }

    @Test("invalid JSON and missing files are reported with the file name")
    func unreadable() throws {
        let (file, error) = try Self.loadError("clients:\n  - client_id: demo\n")
        let failure = try #require(error)
        #expect(failure.file == file)
        #expect(failure.description.contains("JSON"))

        let missing = URL(fileURLWithPath: "/nonexistent/sesame-seed.json")
        #expect {
            _ = try SeedConfiguration.load(from: missing)
        } throws: { error in
            "\(error)".contains("/nonexistent/sesame-seed.json")
        }
    }
}
