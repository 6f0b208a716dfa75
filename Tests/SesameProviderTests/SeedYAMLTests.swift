import Foundation
import Testing
import StoreTesting
@testable import SesameProvider

@Suite("Seed configuration: YAML files")
struct SeedYAMLTests {
    /// ``SeedConfigurationTests/valid`` written in YAML, block and flow styles mixed.
    static let valid = """
        # The same seed as SeedConfigurationTests.valid.
        clients:
          - client_id: demo
            name: Demo
            secret: 0123456789abcdef0123456789abcdef-secret
            redirect_uris: [http://127.0.0.1/callback]
            post_logout_redirect_uris: []
            grant_types:
              - authorization_code
              - refresh_token
            scopes: [openid, profile, email, offline_access]
            token_endpoint_auth_method: client_secret_basic
            id_token_signing_alg: ES256
            access_token_lifetime: 600
            id_token_lifetime: 300
            refresh_token_lifetime: 2592000
          - client_id: native
            redirect_uris: ["com.example.app:/cb"]
        users:
          - username: alice
            email: alice@example.com
            password: wonderland-1865
            email_verified: true
            name: Alice Example
            given_name: Alice
            family_name: Example
        """

    /// Writes `contents` to `name` in a fresh sandbox and loads it with ``SeedConfiguration/load(from:)``.
    static func load(_ contents: String, name: String = "seed.yaml") throws -> SeedConfiguration {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let file = sandbox.directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: file)
        return try SeedConfiguration.load(from: file)
    }

    /// The error of loading `contents` from `name`; nil if it loads.
    static func loadError(_ contents: String, name: String = "seed.yaml") throws -> SeedConfigurationError? {
        do {
            _ = try load(contents, name: name)
            return nil
        } catch let error as SeedConfigurationError {
            return error
        }
    }

    static func decodeYAML(_ yaml: String) throws -> SeedConfiguration {
        try SeedConfiguration.decode(Data(yaml.utf8), source: "seed.yaml")
    }

    @Test("a YAML seed equal in content to a JSON seed decodes to an equal SeedConfiguration")
    func equivalentToJSON() throws {
        let fromJSON = try SeedConfiguration.decode(Data(SeedConfigurationTests.valid.utf8), source: "seed.json")
        let fromYAML = try Self.decodeYAML(Self.valid)
        #expect(fromYAML == fromJSON)
        #expect(fromYAML.clients.first?.redirectURIs == ["http://127.0.0.1/callback"])
        #expect(fromYAML.clients.first?.accessTokenLifetime == 600)
        #expect(fromYAML.users.first?.emailVerified == true)
        // JSON is YAML too: the JSON text read as YAML gives the same result.
        let jsonAsYAML = try SeedConfiguration.decode(
            Data(SeedConfigurationTests.valid.utf8), source: "seed", format: .yaml)
        #expect(jsonAsYAML == fromJSON)
    }

    @Test(
        "the format follows the extension, else the first character",
        arguments: [
            ("seed.json", "clients: []", SeedFileFormat.json),
            ("seed.yaml", "{\"clients\": []}", .yaml),
            ("seed.yml", "clients: []", .yaml),
            ("SEED.YML", "clients: []", .yaml),
            ("seed.JSON", "{}", .json),
            ("seed.conf", "  \n\t{\"clients\": []}", .json),
            ("seed.conf", "\u{FEFF}{\"clients\": []}", .json),
            ("seed", "clients: []", .yaml),
            ("seed.txt", "# comment\n{}", .yaml),
        ])
    func formatDetection(name: String, contents: String, expected: SeedFileFormat) {
        #expect(SeedFileFormat(fileName: name, contents: Data(contents.utf8)) == expected)
    }

    @Test(".yml and extension-less files load as YAML; a {-file without extension as JSON")
    func loadsByExtension() throws {
        let yml = try Self.load(Self.valid, name: "seed.yml")
        #expect(yml == (try Self.decodeYAML(Self.valid)))
        let plain = try Self.load(Self.valid, name: "sesame-seed")
        #expect(plain == yml)
        let json = try Self.load(SeedConfigurationTests.valid, name: "sesame-seed")
        #expect(json == yml)
    }

    @Test("string fields keep the text as written: numbers, octal-looking, yes/no/on/off, dates")
    func scalarsStayText() throws {
        let seed = try Self.decodeYAML(
            """
            clients:
              - client_id: 123
                name: no
                secret: 12345678901234567890123456789012345678
                redirect_uris: [com.example.app:/cb]
                mfa_policy: never
              - client_id: 0x1F
                name: 2024-01-01
                redirect_uris: [com.example.other:/cb]
                token_endpoint_auth_method: none
            users:
              - username: on
                email: off@example.com
                password: 0123456789
                given_name: yes
                family_name: off
              - username: "007"
                email: bond@example.com
                password: 1.50000000
                name: 'null'
            """)
        #expect(seed.clients.map(\.clientID) == ["123", "0x1F"])
        #expect(seed.clients[0].name == "no")
        #expect(seed.clients[0].secret == "12345678901234567890123456789012345678")
        #expect(seed.clients[1].name == "2024-01-01")
        #expect(seed.clients[1].tokenEndpointAuthMethod == "none")
        #expect(seed.users[0].username == "on")
        #expect(seed.users[0].password == "0123456789")
        #expect(seed.users[0].givenName == "yes")
        #expect(seed.users[0].familyName == "off")
        #expect(seed.users[1].username == "007")
        #expect(seed.users[1].password == "1.50000000")
        #expect(seed.users[1].name == "null")
    }

    @Test("password: 0123 is the four characters 0123, so it is too short, not the number 83 or 123")
    func shortNumericPassword() throws {
        let failure = try #require(
            try Self.loadError("users:\n  - username: bob\n    email: bob@example.com\n    password: 0123\n"))
        #expect(failure.path == "users[0].password")
        #expect(failure.reason.contains("at least 8"))
    }

    @Test("booleans and lifetimes: true/false and YAML 1.1 yes/no/on/off; quoted or other words are wrong types")
    func typedScalars() throws {
        let seed = try Self.decodeYAML(
            """
            clients:
              - {client_id: a, redirect_uris: ["com.example.a:/cb"], first_party: yes, access_token_lifetime: 900}
              - {client_id: b, redirect_uris: ["com.example.b:/cb"], first_party: off}
            users:
              - {username: u, email: u@example.com, email_verified: on}
              - {username: v, email: v@example.com, email_verified: false}
            """)
        #expect(seed.clients.map(\.firstParty) == [true, false])
        #expect(seed.clients[0].accessTokenLifetime == 900)
        #expect(seed.users.map(\.emailVerified) == [true, false])

        for (yaml, path, reason) in [
            ("clients: [{client_id: a, first_party: \"true\"}]", "clients[0].first_party",
             "has the wrong type; it must be true or false"),
            ("clients: [{client_id: a, first_party: maybe}]", "clients[0].first_party",
             "has the wrong type; it must be true or false"),
            ("clients: [{client_id: a, access_token_lifetime: \"600\"}]", "clients[0].access_token_lifetime",
             "has the wrong type; it must be a whole number"),
            ("clients: [{client_id: a, access_token_lifetime: ten}]", "clients[0].access_token_lifetime",
             "has the wrong type; it must be a whole number"),
        ] {
            let failure = try #require(try Self.loadError(yaml), "\(yaml)")
            #expect(failure.path == path, "\(yaml)")
            #expect(failure.reason == reason, "\(yaml)")
        }
    }

    @Test("null (~, null, no value) means not set for optional keys and is an error for required ones")
    func nulls() throws {
        let seed = try Self.decodeYAML(
            """
            clients:
              - client_id: a
                name: ~
                redirect_uris: ["com.example.a:/cb"]
                scopes:
            users:
              - username: u
                email: u@example.com
                password:
                given_name: null
            """)
        #expect(seed.clients[0].name == nil && seed.clients[0].scopes == nil)
        #expect(seed.users[0].password == nil && seed.users[0].givenName == nil)
        #expect(try Self.decodeYAML("clients:\nusers: ~\n") == SeedConfiguration())

        for (yaml, path) in [
            ("clients: [{client_id: ~}]", "clients[0].client_id"),
            ("users: [{username: null, email: u@example.com}]", "users[0].username"),
            ("users:\n  - username: u\n    email:\n", "users[0].email"),
            ("clients: [{client_id: a, redirect_uris: [~]}]", "clients[0].redirect_uris[0]"),
        ] {
            let failure = try #require(try Self.loadError(yaml), "\(yaml)")
            #expect(failure.path == path, "\(yaml)")
            #expect(failure.reason == "must be a string, not null", "\(yaml)")
        }
    }

    @Test("anchors and merge keys share settings between clients; merged keys are checked too")
    func mergeKeys() throws {
        let seed = try Self.decodeYAML(
            """
            clients:
              - &app
                client_id: one
                redirect_uris: ["com.example.app:/cb"]
                scopes: [openid, profile]
                first_party: true
              - <<: *app
                client_id: two
            """)
        #expect(seed.clients.map(\.clientID) == ["one", "two"])
        #expect(seed.clients[1].scopes == ["openid", "profile"])
        #expect(seed.clients[1].firstParty == true)

        let failure = try #require(
            try Self.loadError("clients:\n  - &app {client_id: one, scope: [openid]}\n  - {<<: *app, client_id: two}\n"))
        #expect(failure.path == "clients[0].scope")
        #expect(failure.reason.contains("not a known key"))
    }
}
