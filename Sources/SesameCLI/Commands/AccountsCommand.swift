import ArgumentParser
import Foundation
import Sesame

/// `sesame accounts`: the signed-in accounts, most recently used first, `*` marking the current.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List the signed-in accounts (most recently used first; * = current).")

    @Flag(help: "List the accounts the apps of this config directory share for single sign-on instead (docs/native-sso.md).")
    var sso = false
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        try await reportingErrors {
            if sso {
                try await listShared()
                return
            }
            guard CLIProfile.existsOrNil(configDir.directory) else {
                if json.enabled { try Terminal.json([AccountSummary]()) } else {
                    Terminal.out("No accounts. Sign in with `sesame login --issuer URL --client-id ID`.")
                }
                return
            }
            let session = try ClientSession.open(configDir)
            let accounts = await session.accounts()
            let current = await session.client.currentAccount()
            let summaries = accounts.map { AccountSummary($0, current: $0.id == current?.id) }
            if json.enabled {
                try Terminal.json(summaries)
            } else if summaries.isEmpty {
                Terminal.out("No accounts. Sign in with `sesame login`.")
            } else {
                for summary in summaries {
                    Terminal.out(
                        "\(summary.current ? "*" : " ") \(summary.id)  \(summary.label)  \(summary.issuer)")
                }
            }
        }
    }
}

extension AccountsCommand {
    /// `sesame accounts --sso`: what a "Continue as …" screen would offer.
    private func listShared() async throws {
        let shared: [SSOAccount]
        if CLIProfile.existsOrNil(configDir.directory) {
            shared = try await ClientSession.open(configDir, sso: true).client.sso.accounts()
        } else {
            shared = []
        }
        if json.enabled {
            try Terminal.json(shared.map(SharedAccountSummary.init))
        } else if shared.isEmpty {
            Terminal.out("No shared accounts. Sign an app in with `sesame login --sso`.")
        } else {
            for account in shared {
                let label = SharedAccountSummary(account).label
                Terminal.out("  \(account.id)  \(label)  shared by \(account.sharedBy)")
            }
        }
    }
}

/// An account shared for single sign-on, as the CLI prints it (no secret).
struct SharedAccountSummary: Encodable {
    var id: String
    var issuer: String
    var subject: String
    var email: String?
    var name: String?
    var sharedBy: String
    var updatedAt: Date

    init(_ account: SSOAccount) {
        id = account.id
        issuer = account.issuer
        subject = account.subject
        email = account.email
        name = account.displayName
        sharedBy = account.sharedBy
        updatedAt = account.updatedAt
    }

    var label: String { AccountSummary.label(name: name, email: email, subject: subject) }

    enum CodingKeys: String, CodingKey {
        case id, issuer, email, name
        case subject = "sub"
        case sharedBy = "shared_by"
        case updatedAt = "updated_at"
    }
}

extension CLIProfile {
    /// `true` when a profile file exists (a broken one still throws when opened).
    static func existsOrNil(_ directory: ConfigDirectory) -> Bool {
        FileManager.default.fileExists(atPath: directory.profileURL.path)
    }
}

/// An account as the CLI prints it.
struct AccountSummary: Encodable {
    var id: String
    var issuer: String
    var subject: String
    var email: String?
    var name: String?
    var lastUsedAt: Date
    var current: Bool

    init(_ account: Account, current: Bool) {
        id = account.id
        issuer = account.issuer
        subject = account.subject
        email = account.email
        name = account.displayName
        lastUsedAt = account.lastUsedAt
        self.current = current
    }

    var label: String { Self.label(name: name, email: email, subject: subject) }

    /// `Name <email>`, or whichever of the two is known, else the subject.
    static func label(name: String?, email: String?, subject: String) -> String {
        switch (name, email) {
        case (let name?, let email?): "\(name) <\(email)>"
        case (nil, let email?): email
        case (let name?, nil): name
        case (nil, nil): subject
        }
    }

    static func label(_ account: Account) -> String {
        AccountSummary(account, current: true).label
    }

    enum CodingKeys: String, CodingKey {
        case id, issuer, email, name, current
        case subject = "sub"
        case lastUsedAt = "last_used_at"
    }
}
