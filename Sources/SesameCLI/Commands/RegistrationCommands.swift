import ArgumentParser
import Foundation
import SesameServer

/// `sesame registration token create`: initial access tokens for `sesame serve --registration
/// token` (RFC 7591 §3; docs/server.md).
struct RegistrationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registration",
        abstract: "Dynamic client registration (RFC 7591): initial access tokens.",
        subcommands: [Token.self])

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Initial access tokens that let an app register itself at /register.", subcommands: [Create.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Create an initial access token; it is printed once, only its digest is kept.")
            @Option(help: "How many registrations it allows (default 1).") var uses = 1
            @Option(
                name: .customLong("expires-in"),
                help: ArgumentHelp("Seconds it stays valid (default 86400, a day).", valueName: "seconds"))
            var expiresIn = 86_400
            @OptionGroup var dataDir: DataDirOption

            func run() async throws {
                try await reportingErrors {
                    let token = try await AdminSession.with(dataDir) {
                        try await $0.createInitialAccessToken(uses: uses, lifetime: TimeInterval(expiresIn))
                    }
                    Terminal.out(token)
                    Terminal.error(
                        "Initial access token for \(uses) registration\(uses == 1 ? "" : "s"), valid \(expiresIn) s: send it as Authorization: Bearer to /register (sesame serve --registration token).")
                }
            }
        }
    }
}
