import ArgumentParser
import Foundation
import SesameServer

/// `sesame serve` options for delivering email through an SMTP relay. Without `--smtp-host`
/// messages stay in the data directory's outbox (`sesame outbox` prints them). The password
/// comes from the environment variable `SESAME_SMTP_PASSWORD`, never from a flag (flags end up
/// in shell history and `ps` output).
struct SMTPOptions: ParsableArguments {
    @Option(name: .customLong("smtp-host"), help: "Deliver email through this SMTP relay (e.g. 127.0.0.1).")
    var host: String?
    @Option(name: .customLong("smtp-port"), help: "The relay's port.")
    var port: Int = 25
    @Option(name: .customLong("smtp-from"), help: "The sender address, e.g. no-reply@example.com.")
    var from: String?
    @Option(
        name: .customLong("smtp-username"),
        help: "Log in to the relay (AUTH PLAIN/LOGIN; loopback relays only); the password is read from SESAME_SMTP_PASSWORD.")
    var username: String?

    static let passwordVariable = "SESAME_SMTP_PASSWORD"

    /// The relay settings, or `nil` when no `--smtp-host` was given.
    func configuration(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError) -> SMTPConfiguration? {
        guard let host else {
            if from != nil || username != nil {
                throw CLIError("--smtp-from and --smtp-username need --smtp-host", hint: "Pass --smtp-host.")
            }
            return nil
        }
        guard let from else {
            throw CLIError("--smtp-host needs a sender address", hint: "Pass --smtp-from no-reply@example.com.")
        }
        let password = environment[Self.passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
        if username != nil, password == nil {
            throw CLIError(
                "--smtp-username needs a password", hint: "Set \(Self.passwordVariable) in the environment.")
        }
        let configuration = SMTPConfiguration(
            host: host, port: port, from: from, username: username, password: username == nil ? nil : password)
        do {
            try configuration.validate()
        } catch {
            throw CLIError(error.description)
        }
        return configuration
    }
}
