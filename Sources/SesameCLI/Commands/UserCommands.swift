import ArgumentParser
import Foundation
import SesameProtocol
import SesameServer

/// `sesame user add|list|remove`: end users in the data directory. Passwords are hashed (PHC
/// scrypt) by the server and never printed.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage the users of a server's data directory.",
        subcommands: [Add.self, List.self, Remove.self, Role.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a user with a password.",
            discussion: """
                The password is prompted for without echo when stdin is a terminal; scripts \
                pipe it with --password-stdin (one line). --password works but leaves the \
                password in the shell history.
                Example: printf '%s\\n' "$PW" | sesame user add alice --email alice@example.com --password-stdin
                """)

        @Argument(help: "The login name.") var username: String
        @Option(help: "The email address (unique).") var email: String
        @Option(help: "The password (prefer --password-stdin or the prompt).") var password: String?
        @Flag(name: .customLong("password-stdin"), help: "Read the password from one line of stdin.")
        var passwordFromStdin = false
        @Option(help: "The full name (the `name` claim).") var name: String?
        @Flag(help: "Mark the email address as not verified.") var unverified = false
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption
        @OptionGroup var passwordHashing: PasswordHashingOptions

        func validate() throws {
            if password != nil, passwordFromStdin {
                throw ValidationError("Use either --password or --password-stdin, not both.")
            }
        }

        func run() async throws {
            try await reportingErrors {
                let secret = try readPassword()
                var claims: StandardClaims?
                if let name {
                    var profile = StandardClaims(sub: "")
                    profile.name = name
                    claims = profile
                }
                let user = try await AdminSession.with(dataDir, hasher: try passwordHashing.hasher()) { admin in
                    try await admin.addUser(
                        username: username, email: email, password: secret, claims: claims,
                        emailVerified: !unverified)
                }
                if json.enabled {
                    try Terminal.json(UserSummary(user))
                } else {
                    Terminal.out("User \(user.username) <\(user.email)> created (sub \(user.id)).")
                }
            }
        }

        private func readPassword() throws(CLIError) -> String {
            if let password {
                guard !password.isEmpty else {
                    throw CLIError("the password is empty", hint: "Pass a non-empty --password.")
                }
                return password
            }
            if passwordFromStdin { return try PasswordInput.readLineFromStdin() }
            guard Terminal.stdinIsTTY else {
                throw CLIError(
                    "no password given and stdin is not a terminal",
                    hint: "Pass --password-stdin and pipe the password in.")
            }
            return try PasswordInput.prompt(for: username)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users.")
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let users = try await AdminSession.with(dataDir) { try await $0.users() }
                    .sorted { $0.username < $1.username }
                if json.enabled {
                    try Terminal.json(users.map(UserSummary.init))
                } else if users.isEmpty {
                    Terminal.out("No users. Add one with: sesame user add <username> --email <email>")
                } else {
                    for user in users {
                        Terminal.out(
                            "\(user.username)  \(user.email)\(user.emailVerified ? "" : " (unverified)")  \(user.id)")
                    }
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a user.")
        @Argument(help: "The username or email.") var login: String
        @OptionGroup var dataDir: DataDirOption

        func run() async throws {
            try await reportingErrors {
                try await AdminSession.with(dataDir) { admin in
                    guard try await admin.store.user(login: login) != nil else {
                        throw CLIError(
                            "no user '\(login)' in \(dataDir.path)",
                            hint: "List them with `sesame user list`.")
                    }
                    try await admin.removeUser(login: login)
                }
                Terminal.out("User \(login) removed.")
            }
        }
    }
}

extension UserCommand {
    /// `sesame user role <user> <role>`: the operator roles of the admin API (docs/admin.md).
    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Grant an operator role for the admin API, take it away, or list the operators.",
            discussion: """
                admin: everything. helpdesk: users, their sessions, factors and lockouts, the audit log; \
                no clients, keys or providers. auditor: reads everything, changes nothing. \
                `none` takes the role away. Without arguments: the operators and their roles.
                """)
        @Argument(help: "The user's username, email or id.") var login: String?
        @Argument(help: "admin, helpdesk, auditor or none.") var role: String?
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func validate() throws {
            if login != nil, role == nil {
                throw ValidationError("give the role too: sesame user role \(login ?? "") admin|helpdesk|auditor|none")
            }
            if let role, role != "none", AdminRole(rawValue: role) == nil {
                throw ValidationError("'\(role)' is not a role; use admin, helpdesk, auditor or none")
            }
        }

        func run() async throws {
            try await reportingErrors {
                guard let login, let role else {
                    let operators = try await AdminSession.with(dataDir) { admin in
                        var rows: [(AdminRoleRecord, UserRecord?)] = []
                        for record in try await admin.roles() { rows.append((record, try await admin.store.user(id: record.userID))) }
                        return rows
                    }
                    if json.enabled {
                        try Terminal.json(operators.map { OperatorSummary(username: $0.1?.username, id: $0.0.userID, role: $0.0.role.rawValue) })
                    } else if operators.isEmpty {
                        Terminal.out("No operators. Make the first administrator with: sesame user role <username> admin")
                    } else {
                        for (record, user) in operators { Terminal.out("\(record.role.rawValue)  \(user?.username ?? "(a client)")  \(record.userID)") }
                    }
                    return
                }
                let granted = AdminRole(rawValue: role)
                let user = try await AdminSession.with(dataDir) { try await $0.setRole(granted, login: login) }
                Terminal.out(granted.map { "\(user.username) is now \($0.rawValue)." } ?? "\(user.username) has no operator role now.")
            }
        }
    }
}

/// An operator as `sesame user role --json` prints them.
struct OperatorSummary: Encodable {
    var username: String?
    var id: String
    var role: String
}

/// A user as printed with `--json` (never the password hash).
struct UserSummary: Encodable {
    var sub: String
    var username: String
    var email: String
    var emailVerified: Bool
    var name: String?
    var createdAt: Date

    init(_ user: UserRecord) {
        sub = user.id
        username = user.username
        email = user.email
        emailVerified = user.emailVerified
        name = user.claims.name
        createdAt = user.createdAt
    }

    enum CodingKeys: String, CodingKey {
        case sub, username, email, name
        case emailVerified = "email_verified"
        case createdAt = "created_at"
    }
}
