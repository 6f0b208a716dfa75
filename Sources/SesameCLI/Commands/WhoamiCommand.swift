import ArgumentParser
import Foundation
import Sesame
import SesameProtocol

/// `sesame whoami`: the current account's claims from the UserInfo endpoint (OIDC Core §5.3),
/// whose `sub` the SDK checks against the ID token's (§5.3.2).
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show who is signed in (asks the provider's userinfo endpoint).")

    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        try await reportingErrors {
            let session = try ClientSession.open(configDir)
            let account = try await session.currentAccount()
            let claims = try await session.client.userInfo(for: account.id)
            AccountLabels.remember(claims, for: account, in: session.directory)
            if json.enabled {
                try Terminal.json(claims)
                return
            }
            var rows: [(String, String)] = []
            if let name = claims.name { rows.append(("Name", name)) }
            if let username = claims.preferredUsername { rows.append(("Username", username)) }
            if let email = claims.email {
                rows.append(("Email", email + (claims.emailVerified == true ? " (verified)" : "")))
            }
            rows.append(("Subject", claims.sub))
            rows.append(("Issuer", account.issuer))
            rows.append(("Account", account.id))
            Terminal.table(rows)
        }
    }
}
