import ArgumentParser
import Foundation
import Sesame
import SesameProtocol

/// `sesame passkey add | list | rename | remove`: the account's passkeys (docs/passkeys.md),
/// made and used by Sesame's software authenticator with its key in this config directory's
/// encrypted store. `sesame login --passkey` signs in with it, no password.
struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "Manage the account's passkeys; this machine's is a software passkey.",
        subcommands: [Add.self, List.self, Rename.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a passkey on this machine, sealed under a passkey PIN you choose, and register it for the account.")
        @Option(help: "A name for the account's list of passkeys.") var name: String?
        @Option(help: "The account id, email or subject (default: the current account).") var account: String?
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                let target = try await session.account(account)
                let pin = try session.newPasskeyPIN()
                let passkey = try await session.client.passkeys.register(
                    using: session.passkeyAuthenticator(newPIN: pin), name: name ?? "sesame CLI on \(ProcessInfo.processInfo.hostName)",
                    account: target.id)
                if json.enabled {
                    try Terminal.json(PasskeyRow(passkey, local: true))
                } else {
                    Terminal.out("Passkey \"\(passkey.name)\" registered for \(target.email ?? target.subject) (id \(passkey.id)).")
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the account's passkeys; * marks this machine's.")
        @Option(help: "The account id, email or subject (default: the current account).") var account: String?
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                let target = try await session.account(account)
                let passkeys = try await session.client.passkeys.list(account: target.id)
                let local = Set(try await session.passkeyAuthenticator().credentials().map(\.id))
                if json.enabled {
                    try Terminal.json(passkeys.map { PasskeyRow($0, local: local.contains($0.id)) })
                } else if passkeys.isEmpty {
                    Terminal.out("No passkeys. Add one with `sesame passkey add`.")
                } else {
                    for passkey in passkeys {
                        let used = passkey.lastUsedAt.map { "last used \(PasskeyCommand.shown($0))" } ?? "never used"
                        Terminal.out("\(local.contains(passkey.id) ? "*" : " ") \(passkey.id)  \(passkey.name)  \(passkey.keyKind)  \(used)")
                    }
                }
            }
        }
    }

    /// A server's `last_used_at` (seconds since 1970) as a date, or "at an unknown time" when it
    /// is no NumericDate in range (RFC 7519 §2, ``NumericDate``).
    static func shown(_ seconds: Int) -> String {
        (try? NumericDate(validating: Double(seconds), claim: "last_used_at")).map { "\($0.date)" } ?? "at an unknown time"
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a passkey.")
        @Argument(help: "The passkey id (see `sesame passkey list`).") var id: String
        @Argument(help: "The new name.") var name: String
        @Option(help: "The account id, email or subject (default: the current account).") var account: String?
        @OptionGroup var configDir: ConfigDirOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                let target = try await session.account(account)
                let passkey = try await session.client.passkeys.rename(id: id, to: name, account: target.id)
                Terminal.out("Passkey \(passkey.id) is now \"\(passkey.name)\".")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a passkey from the account (and its key from this machine when it is this machine's).")
        @Argument(help: "The passkey id (see `sesame passkey list`).") var id: String
        @Option(help: "The account id, email or subject (default: the current account).") var account: String?
        @OptionGroup var configDir: ConfigDirOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                let target = try await session.account(account)
                try await session.client.passkeys.remove(id: id, account: target.id)
                try await session.passkeyAuthenticator().remove(id: id)
                Terminal.out("Passkey \(id) removed.")
            }
        }
    }
}

/// One passkey for `--json`.
struct PasskeyRow: Encodable {
    var id: String
    var name: String
    var keyKind: String
    var createdAt: Int
    var lastUsedAt: Int?
    var onThisMachine: Bool

    init(_ passkey: Passkey, local: Bool) {
        id = passkey.id
        name = passkey.name
        keyKind = passkey.keyKind
        createdAt = passkey.createdAt
        lastUsedAt = passkey.lastUsedAt
        onThisMachine = local
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case keyKind = "key_kind"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case onThisMachine = "on_this_machine"
    }
}
