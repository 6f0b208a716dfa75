import ArgumentParser
import Foundation
import SesameServer

/// `sesame api add|list|remove`: the APIs (RFC 8707 resources) the server issues
/// audience-restricted access tokens for, and `sesame client apis`, which clients may ask for
/// which (docs/resource-server.md).
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Manage the APIs access tokens are issued for (RFC 8707 resources).",
        discussion: """
            A client names an API in the resource parameter of /authorize, /par or /token; the \
            access token then carries the API in aud and only the scopes the API defines, so \
            another API refuses it. Let a client ask for an API with \
            `sesame client add … --api URL` or `sesame client apis CLIENT_ID --api URL`.
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register an API, or change a registered one's name and scopes.")
        @Argument(help: "The API's identifier: its https URL, as its tokens' aud will name it.") var identifier: String
        @Option(name: .customLong("scope"), help: "A scope the API defines (repeatable), e.g. orders:read.")
        var scopes: [String] = []
        @Option(help: "A display name (default: the identifier).") var name: String?
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let api = try await AdminSession.with(dataDir) {
                    try await $0.addAPI(identifier: identifier, name: name, scopes: scopes)
                }
                if json.enabled {
                    try Terminal.json(APISummary(api))
                    return
                }
                Terminal.out("API \(api.identifier) registered (scopes: \(api.scopes.isEmpty ? "none" : api.scopes.joined(separator: " "))).")
                Terminal.out("Let a client ask for it: sesame client apis CLIENT_ID --api \(api.identifier)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the registered APIs.")
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let apis = try await AdminSession.with(dataDir) { try await $0.apis() }
                if json.enabled {
                    try Terminal.json(apis.map(APISummary.init))
                } else if apis.isEmpty {
                    Terminal.out("No APIs. Register one with: sesame api add https://api.example.com --scope orders:read")
                } else {
                    for api in apis {
                        Terminal.out("\(api.identifier)  \(api.name)  scopes: \(api.scopes.joined(separator: " "))")
                    }
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an API: no new token is issued for it (tokens issued already stay valid until they expire).")
        @Argument(help: "The API's identifier.") var identifier: String
        @OptionGroup var dataDir: DataDirOption

        func run() async throws {
            try await reportingErrors {
                try await AdminSession.with(dataDir) { try await $0.removeAPI(identifier: identifier) }
                Terminal.out("API \(identifier) removed.")
            }
        }
    }
}

/// An API as `sesame api list --json` prints it.
struct APISummary: Encodable {
    var identifier: String
    var name: String
    var scopes: [String]

    init(_ record: APIRecord) {
        identifier = record.identifier
        name = record.name
        scopes = record.scopes
    }
}
