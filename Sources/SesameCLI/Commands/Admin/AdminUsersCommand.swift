import ArgumentParser
import Foundation
import SesameProtocol

/// `sesame admin users`: find a user and act on them through the admin API (docs/admin.md).
struct AdminUsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Search, show, disable, enable and unlock users; end their sessions.",
        subcommands: [
            Search.self, Show.self, Create.self, Disable.self, Enable.self, Unlock.self, Sessions.self, PasswordReset.self,
            Delete.self,
        ])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a user, who is emailed a code to choose a password (an invitation).",
            discussion: "Example: sesame admin users create alice --email alice@example.com --name 'Alice Liddell'")
        @Argument(help: "The username.") var username: String
        @Option(help: "The email address.") var email: String
        @Option(help: "The full name.") var name: String?
        @Flag(help: "Mark the email address as verified (you checked it).") var verified = false
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let profile = AdminUserProfile(username: username, email: email, emailVerified: verified, name: name)
                let detail = try await AdminAPIClient.open(configDir).post("/admin/api/users", json: profile, as: AdminUserDetail.self)
                if json.enabled { return try Terminal.json(detail) }
                Terminal.out("Created \(detail.user.username) (\(detail.user.id)); an email to \(detail.user.email) lets them choose a password.")
            }
        }
    }

    struct PasswordReset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "password-reset", abstract: "Email the user a code to choose a new password.")
        @Argument(help: "A user id, username or email.") var user: String
        @OptionGroup var configDir: ConfigDirOption

        func run() async throws {
            try await reportingErrors {
                let admin = try AdminAPIClient.open(configDir)
                let target = try await admin.user(user)
                _ = try await admin.send("POST", "/admin/api/users/\(AdminUsersCommand.escape(target.id))/password-reset")
                Terminal.out("Sent \(target.username) a password-reset code at \(target.email).")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account with its sessions, factors, devices and passkeys (a sign-in of the last 5 minutes).")
        @Argument(help: "A user id, username or email.") var user: String
        @Flag(help: "Confirm: the account cannot be restored.") var yes = false
        @OptionGroup var configDir: ConfigDirOption

        func validate() throws {
            guard yes else { throw ValidationError("Deleting cannot be undone; add --yes to confirm.") }
        }

        func run() async throws {
            try await reportingErrors {
                let admin = try AdminAPIClient.open(configDir)
                let target = try await admin.user(user)
                _ = try await admin.send("DELETE", "/admin/api/users/\(AdminUsersCommand.escape(target.id))")
                Terminal.out("Deleted \(target.username).")
            }
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Users whose username, email, name or id starts with the text (case-insensitive).",
            discussion: "Example: sesame admin users search alice@")
        @Argument(help: "The beginning of a username, email, name or user id (empty: everyone).") var text: String = ""
        @Option(help: "At most this many (1-100).") var limit: Int = 25
        @Option(help: "Where the previous page ended (printed after it).") var cursor: String?
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func validate() throws {
            guard (1...100).contains(limit) else { throw ValidationError("--limit is 1 to 100.") }
            guard text.count <= 100 else { throw ValidationError("The search text is at most 100 characters.") }
        }

        func run() async throws {
            try await reportingErrors {
                let admin = try AdminAPIClient.open(configDir)
                var query = ["q": text, "limit": String(limit)]
                if let cursor { query["cursor"] = cursor }
                let page = try await admin.get("/admin/api/users", query: query, as: AdminUserPage.self)
                if json.enabled { return try Terminal.json(page) }
                if page.users.isEmpty { Terminal.out("No user matches.") }
                for user in page.users {
                    let status = user.disabledAt == nil ? "" : "  disabled"
                    Terminal.out("\(user.username)  \(user.email)  \(user.id)\(user.role.map { "  " + $0 } ?? "")\(status)")
                }
                if let next = page.nextCursor {
                    Terminal.progress("More: sesame admin users search \(text.isEmpty ? "''" : text) --cursor \(next)")
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One user: profile, factors, passkeys, PIN devices, sessions.")
        @Argument(help: "A user id, username or email.") var user: String
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let admin = try AdminAPIClient.open(configDir)
                let id = try await admin.user(user).id
                let detail = try await admin.get("/admin/api/users/" + AdminUsersCommand.escape(id), as: AdminUserDetail.self)
                if json.enabled { return try Terminal.json(detail) }
                let time = { (seconds: Int) in ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds))) }
                Terminal.table([
                    ("id", detail.user.id), ("username", detail.user.username),
                    ("email", detail.user.email + (detail.user.emailVerified ? " (verified)" : " (not verified)")),
                    ("status", detail.user.disabledAt == nil ? "enabled" : "disabled"), ("role", detail.user.role ?? "-"),
                    ("created", time(detail.user.createdAt)), ("last sign-in", detail.lastSignInAt.map(time) ?? "never"),
                    ("second factors", detail.factors.map(\.method.rawValue).joined(separator: ", ")),
                    ("passkeys", String(detail.passkeys.count)), ("PIN devices", String(detail.pinRegistrations.count)),
                    ("linked identities", detail.federatedIdentities.map(\.provider).joined(separator: ", ")),
                    ("live sessions", detail.sessions.map { "\($0.id) (\($0.clientID))" }.joined(separator: ", ")),
                ])
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an account: every session of it ends at once.")
        @Argument(help: "A user id, username or email.") var user: String
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption
        func run() async throws { try await AdminUsersCommand.change(user, "disable", configDir, json) }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled account.")
        @Argument(help: "A user id, username or email.") var user: String
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption
        func run() async throws { try await AdminUsersCommand.change(user, "enable", configDir, json) }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Clear a user's sign-in lockouts.")
        @Argument(help: "A user id, username or email.") var user: String
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption
        func run() async throws { try await AdminUsersCommand.change(user, "unlock", configDir, json) }
    }

    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End a user's sessions.", subcommands: [Revoke.self])

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "End every session of a user, or one (--session).")
            @Argument(help: "A user id, username or email.") var user: String
            @Option(help: "Only this session (its id, from `sesame admin users show`).") var session: String?
            @OptionGroup var configDir: ConfigDirOption
            @OptionGroup var json: JSONOption

            func run() async throws {
                guard let session else { return try await AdminUsersCommand.change(user, "sessions/end", configDir, json) }
                try await reportingErrors {
                    let admin = try AdminAPIClient.open(configDir)
                    let id = try await admin.user(user).id
                    let result = try await admin.send(
                        "DELETE", "/admin/api/users/\(AdminUsersCommand.escape(id))/sessions/\(AdminUsersCommand.escape(session))")
                    if json.enabled { return Terminal.write(result + Data("\n".utf8)) }
                    Terminal.out("Ended session \(session) of \(user).")
                }
            }
        }
    }

    /// `POST /admin/api/users/{id}/{action}` and one line saying what happened.
    static func change(_ user: String, _ action: String, _ configDir: ConfigDirOption, _ json: JSONOption) async throws {
        try await reportingErrors {
            let admin = try AdminAPIClient.open(configDir)
            let target = try await admin.user(user)
            let change = try await admin.post("/admin/api/users/\(escape(target.id))/\(action)", as: AdminUserChange.self)
            if json.enabled { return try Terminal.json(change) }
            switch action {
            case "disable":
                Terminal.out("Disabled \(change.user.username); \(change.sessionsEnded) session(s) ended.")
            case "enable": Terminal.out("Enabled \(change.user.username).")
            case "unlock": Terminal.out("Cleared the lockouts of \(change.user.username).")
            default: Terminal.out("Ended \(change.sessionsEnded) session(s) of \(change.user.username).")
            }
        }
    }

    static func escape(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))) ?? segment
    }
}
