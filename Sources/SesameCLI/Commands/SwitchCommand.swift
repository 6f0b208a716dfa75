import ArgumentParser
import Foundation
import Sesame

/// `sesame switch <account>`: makes another signed-in account the current one.
struct SwitchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Make another signed-in account the current one.")

    @Argument(help: "The account id, email or subject (see `sesame accounts`).")
    var account: String
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        try await reportingErrors {
            let session = try ClientSession.open(configDir)
            let target = try await session.account(matching: account)
            try await session.client.switchAccount(to: target.id)
            if json.enabled {
                try Terminal.json(AccountSummary(target, current: true))
            } else {
                Terminal.out("Switched to \(AccountSummary.label(target)).")
            }
        }
    }
}
