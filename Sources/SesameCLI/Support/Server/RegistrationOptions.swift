import ArgumentParser
import Foundation
import SesameServer

/// `sesame serve` options for dynamic client registration at `/register` (RFC 7591, RFC 7592;
/// docs/server.md): off unless `--registration open` or `token`.
struct RegistrationOptions: ParsableArguments {
    @Option(
        name: .customLong("registration"),
        help: ArgumentHelp(
            "Who may register clients at /register: off (default), open (anyone, rate-limited) or token (an initial access token from `sesame registration token create`).",
            valueName: "mode"))
    var mode: String = ClientRegistrationPolicy.Mode.off.rawValue

    @Flag(
        name: .customLong("registration-allow-confidential"),
        help: "Registered clients may ask for a client secret (client_secret_basic, client_secret_post); without it only public clients with PKCE.")
    var allowConfidential = false

    @Flag(
        name: .customLong("registration-allow-client-credentials"),
        help: "Confidential registered clients may use client_credentials (with --registration-allow-confidential).")
    var allowClientCredentials = false

    @Option(
        name: .customLong("registration-scope"),
        help: ArgumentHelp(
            "A scope registered clients may ask for (repeatable; default openid profile email offline_access).", valueName: "scope"))
    var scopes: [String] = []

    @Option(
        name: .customLong("registration-api"),
        help: ArgumentHelp(
            "A registered API (RFC 8707) that clients registering themselves may ask tokens for, with its scopes (repeatable; default none).",
            valueName: "url"))
    var apis: [String] = []

    @Option(
        name: .customLong("registration-unused-lifetime"),
        help: ArgumentHelp(
            "Seconds a registered client that obtained no token is kept before it is removed (default 86400).", valueName: "seconds"))
    var unusedLifetime = Int(ClientRegistrationPolicy().unusedClientLifetime)

    @Option(
        name: .customLong("registrations-per-hour"),
        help: ArgumentHelp("Registrations per hour from everyone together (default 1000).", valueName: "count"))
    var perHour = ClientRegistrationPolicy().registrationsPerHour

    /// The policy the options make, or which option is out of range.
    func policy() throws -> ClientRegistrationPolicy {
        guard let mode = ClientRegistrationPolicy.Mode(rawValue: mode) else {
            throw CLIError("--registration '\(mode)' is not a mode", hint: "Use off, open or token.")
        }
        guard (60...(90 * 86_400)).contains(unusedLifetime) else {
            throw CLIError("--registration-unused-lifetime must be between 60 and 7776000 seconds", hint: "e.g. 86400 (a day)")
        }
        guard (1...1_000_000).contains(perHour) else {
            throw CLIError("--registrations-per-hour must be between 1 and 1000000", hint: "e.g. --registrations-per-hour 1000")
        }
        if allowClientCredentials, !allowConfidential {
            throw CLIError(
                "--registration-allow-client-credentials needs --registration-allow-confidential",
                hint: "client_credentials is for clients that hold a secret.")
        }
        var policy = ClientRegistrationPolicy(
            mode: mode, allowsConfidentialClients: allowConfidential, allowsClientCredentials: allowClientCredentials,
            unusedClientLifetime: TimeInterval(unusedLifetime), registrationsPerHour: perHour)
        policy.apis = apis
        if !scopes.isEmpty {
            do {
                try ClientValidation.checkScopes(scopes)
            } catch {
                throw CLIError("--registration-scope: \(error.reason)", hint: "e.g. --registration-scope openid")
            }
            policy.scopes = scopes
        }
        return policy
    }
}
