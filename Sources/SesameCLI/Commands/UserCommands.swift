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
        subcommands: [Add.self, List.self, Remove.self])

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
                let user = try await AdminSession.with(dataDir) { admin in
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
