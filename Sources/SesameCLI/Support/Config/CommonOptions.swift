import ArgumentParser
import Foundation
import Logging

/// `--config-dir` for the client commands (see ``ConfigDirectory`` for the resolution order).
struct ConfigDirOption: ParsableArguments {
    @Option(
        name: .customLong("config-dir"),
        help: ArgumentHelp(
            "Where credentials and login settings live (default: $SESAME_CONFIG_DIR, else $XDG_CONFIG_HOME/sesame, else ~/.config/sesame).",
            valueName: "path"))
    var path: String?

    var directory: ConfigDirectory { ConfigDirectory.resolve(option: path) }
}

/// `--data-dir` for the server-side commands (`serve`, `client`, `user`, `keys`).
struct DataDirOption: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp("The server's data directory (SQLite database and keys).", valueName: "path"))
    var path: String = "./.sesame"

    var url: URL { URL(fileURLWithPath: path).standardizedFileURL }
}

/// `--json` for every command that prints data.
struct JSONOption: ParsableArguments {
    @Flag(name: .customLong("json"), help: "Print machine-readable JSON on stdout.")
    var enabled = false
}

/// Loggers for the CLI: always on **stderr** (stdout carries results), quiet by default for
/// client commands so that an error is exactly one line.
enum CLILogging {
    static func logger(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = level
        return logger
    }

    /// The logger for client commands: `critical` only unless `SESAME_LOG_LEVEL` asks for more.
    static func clientLogger() -> Logger {
        let requested = ProcessInfo.processInfo.environment["SESAME_LOG_LEVEL"].flatMap(
            Logger.Level.init(rawValue:))
        return logger(label: "sesame", level: requested ?? .critical)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
