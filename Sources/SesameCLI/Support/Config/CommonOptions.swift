import ArgumentParser
import Foundation
import Logging
import SesameServer

/// `--config-dir` for the client commands (see ``ConfigDirectory`` for the resolution order).
struct ConfigDirOption: ParsableArguments {
    @Option(
        name: .customLong("config-dir"),
        help: ArgumentHelp(
            "Where credentials and login settings live (default: $SESAME_CONFIG_DIR, else $XDG_CONFIG_HOME/sesame, else ~/.config/sesame).",
            valueName: "path"))
    var path: String?

    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "Act as the sibling app with this client id, whose sessions are kept apart in the same config directory (single sign-on across apps).",
            valueName: "client-id"))
    var app: String?

    func validate() throws {
        if let app {
            do {
                try ClientValidation.checkClientID(app)
            } catch {
                throw ValidationError("--as: \(error.reason)")
            }
        }
    }

    /// The config directory, or the sibling app's inside it with `--as`.
    var directory: ConfigDirectory {
        let top = ConfigDirectory.resolve(option: path)
        return app.map(top.app) ?? top
    }
}

/// `--data-dir` and `--database` for the server-side commands (`serve`, `client`, `user`,
/// `keys`, `outbox`).
struct DataDirOption: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The server's data directory: the master key that seals signing keys, and the SQLite database unless --database names another.",
            valueName: "path"))
    var path: String = "./.sesame"

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "A PostgreSQL database that every server process shares, e.g. postgres://sesame:secret@db:5432/sesame?sslmode=verify-full (sslmode: disable, prefer, require, verify-full; sslrootcert=FILE). Default: $SESAME_DATABASE_URL, else SQLite in --data-dir. Prefer the variable: a URL on the command line shows its password to other users of the machine.",
            valueName: "url"))
    var databaseURL: String?

    @Option(
        name: .customLong("database-pool-size"),
        help: ArgumentHelp("Connections to PostgreSQL per process (default 16).", valueName: "n"))
    var poolSize: Int = StoreLocation.defaultPoolSize

    var url: URL { URL(fileURLWithPath: path).standardizedFileURL }

    /// The PostgreSQL store from `--database`, else `SESAME_DATABASE_URL`, else `configured`
    /// (the config file's `database` key); `nil` for SQLite.
    func storeLocation(configured: String? = nil) throws -> StoreLocation? {
        let environment = ProcessInfo.processInfo.environment["SESAME_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        let text = databaseURL ?? environment ?? configured
        guard let text, !text.isEmpty else { return nil }
        guard (1...1000).contains(poolSize) else {
            throw CLIError("--database-pool-size must be between 1 and 1000", hint: "16 suits a 2–4 core server.")
        }
        do {
            return .postgres(try DatabaseURL(parsing: text), poolSize: poolSize)
        } catch {
            throw CLIError(
                "\(databaseURL != nil ? "--database" : environment != nil ? "SESAME_DATABASE_URL" : "the config file's database"): \(error.description)",
                hint: "Pass postgres://user:password@host:5432/database, or set SESAME_DATABASE_URL.")
        }
    }
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
        var logger = Logger(label: label) { label in LineLogHandler(label: label) }
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
