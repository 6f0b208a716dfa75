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
    @Flag(help: "Print an app-level token (client credentials) instead of a user's: for calls made before anyone signs in.")
    var app = false
    @Option(
        name: .customLong("client-secret-file"),
        help: ArgumentHelp("With --app: a file holding the client secret (client_secret_basic).", valueName: "file"))
    var clientSecretFile: String?
    @Flag(
        name: .customLong("private-key-jwt"),
        help: "With --app: authenticate with the key of `sesame client-key` (private_key_jwt, RFC 7523).")
    var privateKeyJWT = false
    @OptionGroup var identity: AppIdentityOptions
    @OptionGroup var transport: TransportOptions
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func validate() throws {
        if !app, clientSecretFile != nil || privateKeyJWT {
            throw ValidationError("--client-secret-file and --private-key-jwt need --app.")
        }
        if app, account != nil { throw ValidationError("--app prints the app's token; drop --account.") }
        if !app, identity.issuer != nil || identity.clientID != nil {
            throw ValidationError("--issuer and --client-id are for --app; a user's token uses the remembered sign-in.")
        }
        if app, (clientSecretFile != nil) == privateKeyJWT {
            throw ValidationError("--app needs the client's credential: --client-secret-file FILE or --private-key-jwt.")
        }
    }

    func run() async throws {
        try await reportingErrors {
            if app {
                try await printAppToken()
                return
            }
            let session = try ClientSession.open(configDir, transport: transport)
            let target: Account
            if account == nil, await session.client.currentAccount() == nil, !(await session.client.pin.profiles().isEmpty) {
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

extension TokenCommand {
    /// `sesame token --app`: RFC 6749 §4.4 client credentials, authenticated by a secret or the
    /// config directory's key.
    private func printAppToken() async throws {
        let authentication: ClientSession.AppAuthentication
        if let clientSecretFile {
            authentication = .secret(
                try InputFile.value(clientSecretFile, what: "a client secret", hint: "Put the secret alone in the file."))
        } else {
            authentication = .privateKeyJWT
        }
        let session = try ClientSession.open(
            configDir, profile: try identity.profile(configDir.directory), authentication: authentication,
            transport: transport)
        let token = try await session.client.appAccessToken(forceRefresh: refresh)
        if json.enabled {
            try Terminal.json(
                TokenOutput(accessToken: token, expiresAt: AccessTokenInfo.expiry(of: token), account: session.profile.clientID))
        } else {
            Terminal.out(token)
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
