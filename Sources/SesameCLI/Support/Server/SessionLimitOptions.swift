import ArgumentParser
import Foundation
import SesameServer

/// `sesame serve` options for how many live sessions (refresh-token families) a user keeps
/// (``SessionLimits``): past a cap the least recently used is closed and audited
/// (`session.evicted`).
struct SessionLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("sessions-per-client"),
        help: ArgumentHelp("Live sessions a user keeps with one client (default 25).", valueName: "count"))
    var perClient = SessionLimits().perClient

    @Option(
        name: .customLong("sessions-per-user"),
        help: ArgumentHelp("Live sessions a user keeps with all clients together (default 100).", valueName: "count"))
    var perUser = SessionLimits().perUser

    func limits() throws -> SessionLimits {
        guard (1...100_000).contains(perClient), (1...100_000).contains(perUser) else {
            throw CLIError(
                "--sessions-per-client and --sessions-per-user must be between 1 and 100000",
                hint: "e.g. --sessions-per-client 25 --sessions-per-user 100")
        }
        return SessionLimits(perClient: perClient, perUser: perUser)
    }
}
