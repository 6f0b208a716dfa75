import ArgumentParser
import Foundation
import SesameProtocol

/// `sesame admin`: operate a running server from a terminal through its admin API
/// (docs/admin.md), as an operator with a role, signed in with a second factor. The
/// data-directory commands (`sesame user`, `client`, `keys`, `audit`) keep working offline on
/// the server's own machine.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Operate a running server through its admin API (users, clients, keys, the audit log).",
        discussion: """
            Sign in once with `sesame admin login https://id.example.com` (the browser, --device to \
            approve on a phone, or --password), with a second factor. Then: sesame admin users search \
            alice; sesame admin users disable alice; sesame admin clients edit shop --redirect-uri …; \
            sesame admin audit --user alice --since 1h. --json prints the API's own JSON.
            """,
        subcommands: [
            AdminLoginCommand.self, AdminLogoutCommand.self, AdminUsersCommand.self, AdminClientsCommand.self,
            AdminKeysCommand.self, AdminAuditCommand.self, AdminBootstrapCommand.self,
        ])
}

/// `sesame admin bootstrap CODE`: the first administrator, with the code `sesame serve` printed.
struct AdminBootstrapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bootstrap", abstract: "Become a new server's first administrator with the code sesame serve printed.",
        discussion: "Sign in first (sesame admin login URL; it says you have no role yet), then: sesame admin bootstrap ABCDE-FGHJK-LMNPQ-RSTUV")
    @Argument(help: "The one-time code.") var code: String
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        try await reportingErrors {
            let admin = try AdminAPIClient.open(configDir)
            let result = try await admin.post(
                "/admin/api/bootstrap", json: AdminBootstrapRequest(code: code), as: AdminBootstrapResult.self)
            if json.enabled { return try Terminal.json(result) }
            Terminal.progress("You administer \(admin.issuer.absoluteString) now.")
        }
    }
}

/// `sesame admin login URL`: signs the operator in as the server's `sesame-admin-cli` client.
struct AdminLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a server's admin API (browser, --device or --password; a second factor always).",
        discussion: "Example: sesame admin login https://id.example.com --device")

    @Argument(help: "The server's issuer URL.") var issuer: String
    @Flag(help: "Approve on another device (a phone): prints a code and an address (RFC 8628).") var device = false
    @Flag(help: "Sign in with username and password here, then the second factor.") var password = false
    @Option(help: "With --password: the username or email.") var username: String?
    @Option(name: .customLong("mfa-method"), help: "With --password: the second factor (email, sms, totp, passkey).")
    var mfaMethod: String?
    @Flag(name: .customLong("no-browser"), help: "Print the address to open instead of starting a browser.")
    var noBrowser = false
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        var arguments = [
            "--issuer", issuer, "--client-id", AdminAPIClient.clientID, "--scope", "openid sesame:admin offline_access",
            "--as", AdminAPIClient.clientID,
        ]
        if let path = configDir.path { arguments += ["--config-dir", path] }
        if device { arguments.append("--device") }
        if password { arguments.append("--password") }
        if let username { arguments += ["--username", username] }
        if let mfaMethod { arguments += ["--mfa-method", mfaMethod] }
        if noBrowser { arguments.append("--no-browser") }
        if json.enabled { arguments.append("--json") }
        let login: LoginCommand
        do {
            login = try LoginCommand.parse(arguments)
        } catch {
            throw ValidationError(LoginCommand.message(for: error))
        }
        try await login.run()
        try await reportingErrors {
            // Say now, not at the first command, when this operator has no role.
            let admin = try AdminAPIClient.open(configDir)
            _ = try await admin.get("/admin/api/overview", query: ["window": "hour"], as: AdminOverview.self)
            if !json.enabled { Terminal.progress("The admin API of \(admin.issuer.absoluteString) accepts this sign-in.") }
        }
    }
}

/// `sesame admin logout`: forgets (and revokes) the operator's session.
struct AdminLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of the admin API.")
    @OptionGroup var configDir: ConfigDirOption

    func run() async throws {
        try await reportingErrors {
            let admin = try AdminAPIClient.open(configDir)
            for account in await admin.session.client.accounts() {
                _ = try await admin.session.client.logout(account.id, revoke: true)
            }
            Terminal.out("Signed out of \(admin.issuer.absoluteString).")
        }
    }
}
