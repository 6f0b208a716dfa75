import Foundation
import Sesame
import SesameProtocol

/// Names and emails for the accounts, as last seen at userinfo, kept in
/// `<config-dir>/accounts.json` (0600). Providers need not put `email` or `name` in the ID
/// token (OIDC Core §5.4 lets them answer only at userinfo), so `Account.email` may be empty;
/// this cache lets `sesame accounts` and `sesame switch alice@example.com` show and match
/// people by email. Holds no secret.
struct AccountLabels: Codable, Sendable {
    struct Label: Codable, Sendable, Equatable {
        var email: String?
        var name: String?
    }

    var labels: [String: Label] = [:]

    static func url(_ directory: ConfigDirectory) -> URL {
        directory.url.appendingPathComponent("accounts.json")
    }

    /// The cache; empty when missing or unreadable (it is only a convenience).
    static func load(from directory: ConfigDirectory) -> AccountLabels {
        guard let data = FileManager.default.contents(atPath: url(directory).path),
            let labels = try? JSONDecoder().decode(AccountLabels.self, from: data)
        else { return AccountLabels() }
        return labels
    }

    /// Records what userinfo said about `account`.
    static func remember(_ claims: StandardClaims, for account: Account, in directory: ConfigDirectory) {
        var cache = load(from: directory)
        cache.labels[account.id] = Label(
            email: claims.email ?? account.email,
            name: claims.name ?? claims.preferredUsername ?? account.displayName)
        cache.save(to: directory)
    }

    /// Forgets the labels of accounts that are no longer signed in.
    static func prune(keeping accounts: [Account], in directory: ConfigDirectory) {
        var cache = load(from: directory)
        let keep = Set(accounts.map(\.id))
        cache.labels = cache.labels.filter { keep.contains($0.key) }
        cache.save(to: directory)
    }

    /// `account` with email and name filled in from the cache where the ID token had none.
    func enrich(_ account: Account) -> Account {
        var account = account
        if let label = labels[account.id] {
            account.email = account.email ?? label.email
            account.displayName = account.displayName ?? label.name
        }
        return account
    }

    private func save(to directory: ConfigDirectory) {
        let target = Self.url(directory)
        guard let data = try? JSONEncoder().encode(self),
            (try? data.write(to: target, options: .atomic)) != nil
        else { return }
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
    }
}
