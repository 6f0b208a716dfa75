import ArgumentParser
import Foundation
import Sesame

/// `sesame token`: prints a valid access token for the current account, refreshing it first
/// when it is about to expire (one refresh, rotated refresh token persisted).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token (for `curl -H \"Authorization: Bearer $(sesame token)\"`).",
        discussion: """
            Prints only the token on stdout. This is the one command that prints a secret, by \
            design: do not paste its output into logs or tickets.
            """)

    @Flag(help: "Refresh the token even if it is still valid.")
    var refresh = false
    @Option(help: "The account id, email or subject (default: the current account).")
    var account: String?
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        try await reportingErrors {
            let session = try ClientSession.open(configDir)
            let target: Account
            if account == nil, await session.client.currentAccount() == nil, !(await session.client.pinProfiles().isEmpty) {
                // A PIN-protected profile keeps no session on disk: the PIN unlocks one.
                target = try await PINUnlockPrompt.unlock(session, profile: nil)
            } else {
                target = try await session.account(account)
            }
            let token = try await session.client.validAccessToken(for: target.id, forceRefresh: refresh)
            if json.enabled {
                let expiry = AccessTokenInfo.expiry(of: token)
                try Terminal.json(TokenOutput(accessToken: token, expiresAt: expiry, account: target.id))
            } else {
                Terminal.out(token)
            }
        }
    }
}

/// `sesame token --json`.
struct TokenOutput: Encodable {
    var accessToken: String
    var expiresAt: Date?
    var account: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresAt = "expires_at"
        case account
    }
}
