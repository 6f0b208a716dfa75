import ArgumentParser
import Foundation
import Sesame

/// `sesame logout`: forgets the current (or every) account locally and, with `--revoke`,
/// revokes its tokens at the provider (RFC 7009) first.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out: forget the account here, and with --revoke revoke its tokens at the provider.")

    @Flag(help: "Also revoke the refresh and access tokens at the provider (RFC 7009).")
    var revoke = false
    @Flag(help: "Sign out of every account.")
    var all = false
    @Flag(
        help: "End the device session for every app of this config directory that signed in through it (single sign-on): their next refresh fails. Revokes at the provider.")
    var everywhere = false
    @Argument(help: "The account id, email or subject (default: the current account).")
    var account: String?
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func validate() throws {
        if all, account != nil {
            throw ValidationError("Pass either an account or --all, not both.")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let session = try ClientSession.open(configDir)
            let targets: [Account]
            if all {
                targets = await session.accounts()
            } else if let account {
                targets = [try await session.account(matching: account)]
            } else {
                targets = [try await session.currentAccount()]
            }
            var results: [LogoutOutput] = []
            for target in targets {
                if everywhere {
                    let result = try await session.client.sso.logout(.everywhere, account: target.id, revoke: true)
                    var output = LogoutOutput(target, result: result)
                    output.everywhere = true
                    results.append(output)
                } else {
                    let result = try await session.client.logout(target.id, revoke: revoke)
                    results.append(LogoutOutput(target, result: result))
                }
            }
            AccountLabels.prune(keeping: await session.client.accounts(), in: session.directory)
            if json.enabled {
                try Terminal.json(results)
                return
            }
            if results.isEmpty { Terminal.out("No accounts were signed in.") }
            for output in results {
                Terminal.out(output.sentence)
            }
        }
    }
}

/// One account's logout, as printed.
struct LogoutOutput: Encodable {
    var account: String
    var email: String?
    var signedOut: Bool
    var revoked: Bool
    var revocationError: String?
    var everywhere = false

    init(_ account: Account, result: LogoutResult) {
        self.account = account.id
        email = account.email
        signedOut = true
        revoked = result.revoked
        revocationError = result.revocationError.map { CLIError.singleLine($0.description) }
    }

    var sentence: String {
        let who = email ?? account
        if everywhere, revoked {
            return "Signed out \(who) everywhere: every app that signed in through this device session is signed out."
        }
        if revoked { return "Signed out \(who); its tokens were revoked at the provider." }
        if let revocationError {
            return "Signed out \(who) here, but revocation failed: \(revocationError)"
        }
        return "Signed out \(who) here (tokens not revoked; pass --revoke to revoke them)."
    }

    /// A short description for the demo.
    static func describe(_ result: LogoutResult) -> String {
        LogoutOutput(result.account, result: result).sentence
    }

    enum CodingKeys: String, CodingKey {
        case account, email
        case signedOut = "signed_out"
        case revoked, everywhere
        case revocationError = "revocation_error"
    }
}
