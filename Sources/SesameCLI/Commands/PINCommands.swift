import ArgumentParser
import Foundation
import Sesame

/// `sesame pin register | unlock | change | list | remove`: PIN-protected sessions for the
/// terminal (docs/pin-devices.md). PINs are read without echo, or one per line from stdin when
/// it is not a terminal. After `register` the stored session (and its refresh token) is gone:
/// commands that need a token (`sesame token`, `sesame curl`, …) ask for the PIN.
struct PINCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Protect this machine's session with a PIN.",
        subcommands: [Register.self, Unlock.self, Change.self, List.self, Remove.self])

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a PIN for the current account (sign in at most 5 minutes before).")
        @Option(help: "The account id, email or subject (default: the current account).") var account: String?
        @Option(help: "A name for the list of PIN devices.") var label: String?
        @OptionGroup var configDir: ConfigDirOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                let target = try await session.account(account)
                let policy = try await session.client.pin.policy()
                let pin = try LoginPrompts.secret("New PIN (\(policy.minimumLength)+ digits): ", what: "PIN")
                if Terminal.stdinIsTTY, try LoginPrompts.secret("Repeat the PIN: ", what: "PIN") != pin {
                    throw CLIError("the two PINs differ", hint: "Run `sesame pin register` again.")
                }
                do {
                    let profile = try await session.client.pin.register(pin, for: target.id, label: label ?? target.email)
                    Terminal.out("PIN registered for \(target.email ?? target.subject) (profile \(profile.id)).")
                } catch let error as SesameError where error.code == .stepUpRequired {
                    throw CLIError(
                        "the sign-in is more than 5 minutes old",
                        hint: "Sign in again (`sesame login --password`), then run `sesame pin register` at once.")
                }
            }
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the PIN with the server (each wrong PIN counts; the last allowed one removes it).")
        @Option(help: "The PIN profile id (default: the newest).") var profile: String?
        @OptionGroup var configDir: ConfigDirOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                let account = try await PINUnlockPrompt.unlock(session, profile: profile)
                Terminal.out("Unlocked \(account.email ?? account.subject).")
            }
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the PIN (the old one is checked by the server).")
        @Option(help: "The PIN profile id (default: the newest).") var profile: String?
        @OptionGroup var configDir: ConfigDirOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                let old = try LoginPrompts.secret("Current PIN: ", what: "PIN")
                let new = try LoginPrompts.secret("New PIN: ", what: "PIN")
                try await PINUnlockPrompt.reporting { try await session.client.pin.change(from: old, to: new, profile: profile) }
                Terminal.out("PIN changed.")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the PIN profiles on this machine.")
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                let profiles = await session.client.pin.profiles()
                if json.enabled {
                    try Terminal.json(profiles.map { ["id": $0.id, "account": $0.account, "label": $0.label ?? ""] })
                } else if profiles.isEmpty {
                    Terminal.out("No PIN profiles on this machine.")
                } else {
                    for profile in profiles { Terminal.out("\(profile.id)  \(profile.label ?? profile.account)") }
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a PIN profile here; with --unlock it is revoked at the server too.")
        @Option(help: "The PIN profile id (default: the newest).") var profile: String?
        @Flag(help: "Unlock with the PIN first so that the server revokes the registration and its tokens.")
        var unlock = false
        @OptionGroup var configDir: ConfigDirOption

        func run() async throws {
            try await reportingErrors {
                let session = try ClientSession.open(configDir)
                if unlock { _ = try await PINUnlockPrompt.unlock(session, profile: profile) }
                let result = try await session.client.pin.deregister(profile: profile)
                Terminal.out(
                    result.serverReached
                        ? "PIN profile removed here and revoked at the server."
                        : "PIN profile removed here; the server was not told (use --unlock, or remove it from the account's PIN devices).")
            }
        }
    }
}

/// Asks for the PIN and unlocks, turning the PIN errors into one clear line each.
enum PINUnlockPrompt {
    static func unlock(_ session: ClientSession, profile: String?) async throws -> Account {
        let pin = try LoginPrompts.secret("PIN: ", what: "PIN")
        var account: Account?
        try await reporting { account = try await session.client.pin.unlock(with: pin, profile: profile) }
        return session.labels.enrich(account!)
    }

    static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as SesameError where error.code == .wrongPIN {
            let remaining = error.remainingPINAttempts ?? 0
            throw CLIError(
                "wrong PIN; \(remaining) attempt\(remaining == 1 ? "" : "s") left",
                hint: "After the last one the PIN is revoked and you sign in again.")
        } catch let error as SesameError where error.code == .pinDeregistered {
            throw CLIError(
                "the PIN was revoked and removed from this machine",
                hint: "Sign in again (`sesame login`) and register a new PIN.", exitCode: CLIError.notSignedInExitCode)
        } catch let error as SesameError where error.code == .noPINProfile {
            throw CLIError("no PIN profile here", hint: "Register one with `sesame pin register` after signing in.")
        }
    }
}
