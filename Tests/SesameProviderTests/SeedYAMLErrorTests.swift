import Foundation
import Testing
import StoreTesting
@testable import SesameProvider

@Suite("Seed configuration: YAML errors")
struct SeedYAMLErrorTests {
    static func loadError(_ yaml: String, name: String = "seed.yaml") throws -> (file: String, error: SeedConfigurationError) {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let file = sandbox.directory.appendingPathComponent(name)
        try Data(yaml.utf8).write(to: file)
        do {
            let seed = try SeedConfiguration.load(from: file)
            throw LoadedAnyway(seed: seed)
        } catch let error as SeedConfigurationError {
            return (file.path, error)
        }
    }

    struct LoadedAnyway: Error { var seed: SeedConfiguration }

    @Test(
        "a syntax error names the file, the line and the column, and what to do",
        arguments: [
            // A key indented less than its siblings.
            ("clients:\n  - client_id: demo\n    name: Demo\n   secret: x\n", 4),
            // A tab used for indentation.
            ("users:\n\t- username: bob\n", 2),
            // An unquoted value containing ": ".
            ("users:\n  - username: bob\n    name: Bob: the builder\n", 3),
            // An unclosed flow sequence.
            ("clients:\n  - client_id: demo\n    redirect_uris: [http://127.0.0.1/cb\n", 4),
        ])
    func syntaxErrors(yaml: String, line: Int) throws {
        let (file, error) = try Self.loadError(yaml)
        #expect(error.file == file)
        #expect(error.path == "")
        #expect(error.line == line, "\(error)")
        let column = try #require(error.column)
        #expect(column >= 1)
        #expect(error.description.hasPrefix("\(file):\(line):\(column): is not valid YAML: "), "\(error)")
        #expect(error.reason.contains("indentation") && error.reason.contains("quote"))
        #expect(!error.description.contains("\n"), "one line for the CLI")
    }

    @Test("a key twice in one mapping is a syntax error with its line")
    func duplicateKey() throws {
        let (file, error) = try Self.loadError(
            "users:\n  - username: bob\n    email: bob@example.com\n    username: robert\n", name: "seed.yml")
        #expect(error.file == file)
        #expect(error.reason.contains("\"username\" appears twice"), "\(error)")
        #expect(error.line != nil)
        #expect(error.description.hasPrefix("\(file):"))
    }

    @Test("a control character is a reader error with its line and column")
    func controlCharacter() throws {
        let (_, error) = try Self.loadError("users:\n  - username: b\u{7}ob\n")
        #expect(error.reason.hasPrefix("is not valid YAML"), "\(error)")
        #expect(error.line == 2 && error.column == 16, "\(error)")
    }

    @Test("an empty file, a scalar or a list at the top is not a seed")
    func wrongRoot() throws {
        #expect(try Self.loadError("").error.reason.contains("is empty"))
        #expect(try Self.loadError("# nothing yet\n").error.reason.contains("is empty"))
        #expect(try Self.loadError("clients").error.reason.contains("must be a mapping"))
        #expect(try Self.loadError("- client_id: a\n").error.reason.contains("must be a mapping"))
        let entry = try Self.loadError("clients:\n  - demo\n").error
        #expect(entry.path == "clients[0]" && entry.reason == "must be a mapping")
        let section = try Self.loadError("clients:\n  client_id: demo\n").error
        #expect(section.path == "clients" && section.reason.contains("must be a list"))
    }

    @Test(
        "unknown keys are errors in YAML too, at the top and in entries",
        arguments: [
            ("client:\n  - client_id: a\n", "client"),
            ("clients:\n  - client_id: a\n    redirect_uri: [com.example.a:/cb]\n", "clients[0].redirect_uri"),
            ("users:\n  - username: u\n    email: u@example.com\n    pasword: long-enough-1\n", "users[0].pasword"),
            ("users:\n  - username: u\n    email: u@example.com\n    123: x\n", "users[0].123"),
        ])
    func unknownKeys(yaml: String, path: String) throws {
        let (file, error) = try Self.loadError(yaml)
        #expect(error.path == path)
        #expect(error.reason.hasPrefix("is not a known key; the known keys are "))
        #expect(error.description == "\(file): \(path): \(error.reason)")
    }

    /// The same mistakes in JSON and YAML: the same path and the same reason.
    @Test(
        "JSON and YAML files with the same mistake give the same error",
        arguments: [
            (#"{"clients":[{"client_id":"a","redirect_uris":["http://127.0.0.1/cb"],"grant_types":["password"]}]}"#,
             "clients:\n  - client_id: a\n    redirect_uris: [\"http://127.0.0.1/cb\"]\n    grant_types: [password]\n"),
            (#"{"clients":[{"client_id":"a","redirect_uri":["http://127.0.0.1/cb"]}]}"#,
             "clients:\n  - client_id: a\n    redirect_uri: [\"http://127.0.0.1/cb\"]\n"),
            (#"{"clients":[{"client_id":"a","redirect_uris":["http://example.com/cb"]}]}"#,
             "clients:\n  - client_id: a\n    redirect_uris:\n      - http://example.com/cb\n"),
            (#"{"clients":[{"name":"no id"}]}"#, "clients:\n  - name: no id\n"),
            (#"{"clients":[{"client_id":"a","redirect_uris":"https://a.example/cb"}]}"#,
             "clients:\n  - client_id: a\n    redirect_uris: https://a.example/cb\n"),
            (#"{"clients":[{"client_id":["a"]}]}"#, "clients:\n  - client_id: [a]\n"),
            (#"{"clients":[{"client_id":"a","first_party":"yes"}]}"#, "clients:\n  - client_id: a\n    first_party: 'yes'\n"),
            (#"{"clients":[{"client_id":null}]}"#, "clients:\n  - client_id: null\n"),
            (#"{"users":[{"username":"bob","email":"bob@example.com","password":"short"}]}"#,
             "users:\n  - username: bob\n    email: bob@example.com\n    password: short\n"),
            (#"{"users":[{"username":"bob","email":"bob@example.com"},{"username":"BOB","email":"b2@example.com"}]}"#,
             "users:\n  - {username: bob, email: bob@example.com}\n  - {username: BOB, email: b2@example.com}\n"),
            (#"{"users":[{"username":"bob","email":"not-an-email"}]}"#, "users: [{username: bob, email: not-an-email}]"),
        ])
    func sameErrorsAsJSON(json: String, yaml: String) throws {
        let jsonError = try #require(try SeedConfigurationTests.loadError(json).1)
        let yamlError = try Self.loadError(yaml).error
        #expect(yamlError.path == jsonError.path)
        #expect(yamlError.reason == jsonError.reason)
        #expect(yamlError.line == nil && jsonError.line == nil)
    }

    @Test("a .json file holding YAML says to use a .yaml name; a {-file read as JSON says it is JSON")
    func wrongExtension() throws {
        let (file, error) = try Self.loadError("clients: []\n", name: "seed.json")
        #expect(error.description.hasPrefix("\(file): is not valid JSON"))
        #expect(error.reason.contains(".yaml or .yml"))
        let (_, braces) = try Self.loadError("{clients: []}", name: "seed.conf")
        #expect(braces.reason.contains("is not valid JSON"))
    }
}
