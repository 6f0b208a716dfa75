import ArgumentParser
import Foundation
import SesameProvider

extension ClientCommand {
    /// `sesame client apis <client_id> --api URL… [--default-api URL]`: which registered APIs
    /// (RFC 8707 resources) a client may ask tokens for.
    struct APIs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apis",
            abstract: "Set the registered APIs a client may ask tokens for (RFC 8707); no --api: none.",
            discussion: """
                The list replaces the client's. Its tokens are for the issuer alone unless a \
                request names an API with resource, or --default-api names one.
                """)
        @Argument(help: "The client_id.") var clientID: String
        @OptionGroup var options: ClientAPIOptions
        @OptionGroup var dataDir: DataDirOption

        func run() async throws {
            try await reportingErrors {
                let (apis, defaultAPI) = (options.apis, options.defaultAPI)
                try await AdminSession.with(dataDir) {
                    try await $0.setResources(apis, defaultResource: defaultAPI, clientID: clientID)
                }
                if apis.isEmpty {
                    Terminal.out("\(clientID) may ask for no API: its tokens are for the issuer.")
                } else {
                    Terminal.out(
                        "\(clientID) may ask tokens for \(apis.joined(separator: ", "))"
                            + (defaultAPI.map { "; without resource they are for \($0)." } ?? "."))
                }
            }
        }
    }
}

/// `--api` and `--default-api` of `sesame client add` and `sesame client apis` (RFC 8707).
struct ClientAPIOptions: ParsableArguments {
    @Option(
        name: .customLong("api"),
        help: ArgumentHelp(
            "A registered API the client may ask tokens for with resource (repeatable; RFC 8707, `sesame api add`).",
            valueName: "url"))
    var apis: [String] = []
    @Option(
        name: .customLong("default-api"),
        help: ArgumentHelp("The API its tokens are for when a request names none (one of --api).", valueName: "url"))
    var defaultAPI: String?
}
