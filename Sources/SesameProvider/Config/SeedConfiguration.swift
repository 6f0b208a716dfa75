import SesameStore
import Foundation
import SesameProtocol

/// The declarative seed file that creates clients and users at start, in JSON or YAML
/// (``SeedFileFormat``: by extension, `.json` or `.yaml`/`.yml`; otherwise JSON if the file
/// starts with `{`, YAML else):
///
/// ```json
/// {"clients":[{"client_id":"demo","name":"Demo","redirect_uris":["http://127.0.0.1/callback"],
///              "grant_types":["authorization_code","refresh_token"],"token_endpoint_auth_method":"none",
///              "first_party":true,"mfa_policy":"when_enrolled"}],
///  "users":[{"username":"alice","email":"alice@example.com","password":"...","email_verified":true}]}
/// ```
///
/// ```yaml
/// clients:
///   - client_id: demo
///     name: Demo
///     redirect_uris: [http://127.0.0.1/callback]
///     grant_types: [authorization_code, refresh_token]
///     token_endpoint_auth_method: none
///     first_party: true
///     mfa_policy: when_enrolled
/// users:
///   - username: alice
///     email: alice@example.com
///     password: "..."
///     email_verified: true
/// ```
///
/// Client keys are RFC 7591 §2 metadata names, user profile keys OIDC Core §5.1 claim names;
/// Sesame's own client keys are `mfa_policy` (``MFAPolicy``) and `first_party` (default `false`;
/// only first-party clients may use `/authorize-challenge` and the account APIs,
/// ``ClientRecord/firstParty``). A client `secret` is plaintext in the file and is hashed on
/// import; keep the file readable by the server's user only. Unknown keys are errors, so typos
/// do not pass silently. In YAML, string fields take the text as written (`password: 0123` is
/// `"0123"`, `client_id: 123` is `"123"`, `name: no` is `"no"`); `~`, `null` or no value mean
/// "not set", as `null` does in JSON (an error for `client_id`, `username` and `email`).
/// Apply with ``Seeder``.
public struct SeedConfiguration: Codable, Sendable, Equatable {
    public var clients: [ClientSeed]
    public var users: [UserSeed]
    /// Federation providers (docs/federation.md).
    public var providers: [ProviderSeed]
    /// APIs tokens are issued for (RFC 8707; docs/resource-server.md), applied before the
    /// clients that name them in `resources`.
    public var apis: [APISeed] = []
    /// The PostgreSQL database URL for `sesame serve` and the admin commands when neither
    /// `--database` nor `SESAME_DATABASE_URL` names one (key `database`; it holds a password,
    /// so the file stays readable by the server's user only).
    public var database: String?

    public init(
        clients: [ClientSeed] = [], users: [UserSeed] = [], providers: [ProviderSeed] = [], database: String? = nil
    ) {
        self.clients = clients
        self.users = users
        self.providers = providers
        self.database = database
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case clients, users, providers, database, apis
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clients = try container.decodeIfPresent([ClientSeed].self, forKey: .clients) ?? []
        users = try container.decodeIfPresent([UserSeed].self, forKey: .users) ?? []
        providers = try container.decodeIfPresent([ProviderSeed].self, forKey: .providers) ?? []
        database = try container.decodeIfPresent(String.self, forKey: .database)
        apis = try container.decodeIfPresent([APISeed].self, forKey: .apis) ?? []
    }

    /// Reads, decodes and validates a seed file, JSON or YAML (``SeedFileFormat``). Errors name
    /// the file, the entry and the field, e.g. `seed.yaml: clients[0].grant_types: "password" is
    /// not supported (RFC 9700 §2.4); use authorization_code`, and for YAML syntax errors the
    /// line and column (`seed.yaml:3:7: is not valid YAML: …`).
    public static func load(from url: URL) throws -> SeedConfiguration {
        let file = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SeedConfigurationError(
                file: file, path: "", reason: "cannot be read (\(error.localizedDescription)); check the path and permissions")
        }
        return try decode(data, source: file, format: SeedFileFormat(fileName: url.lastPathComponent, contents: data))
    }

    /// Decodes and validates a seed file's contents; `source` names it in errors. `format` nil
    /// chooses as ``SeedFileFormat/init(fileName:contents:)`` does with `source` as the name.
    public static func decode(_ data: Data, source: String, format: SeedFileFormat? = nil) throws -> SeedConfiguration {
        let format = format ?? SeedFileFormat(fileName: source, contents: data)
        let document = try format.parse(data, source: source)
        try document.structure.check(format: format, source: source)
        let seed: SeedConfiguration
        do {
            seed = try document.decode()
        } catch let error as DecodingError {
            throw SeedConfigurationError(decoding: error, file: source)
        }
        try seed.validate(source: source)
        return seed
    }

    /// Checks every entry (``ClientValidation``, ``UserValidation``) and uniqueness.
    public func validate(source: String) throws {
        var clientIDs = Set<String>()
        for (index, client) in clients.enumerated() {
            let path = "clients[\(index)]"
            do {
                _ = try client.record(secretHash: client.secret == nil ? nil : "pending")
            } catch {
                throw SeedConfigurationError(file: source, path: "\(path).\(error.field)", reason: error.reason)
            }
            guard clientIDs.insert(client.clientID).inserted else {
                throw SeedConfigurationError(
                    file: source, path: "\(path).client_id",
                    reason: "\"\(client.clientID)\" appears twice; give each client its own id")
            }
        }
        var apiIdentifiers = Set<String>()
        for (index, api) in apis.enumerated() {
            let path = "apis[\(index)]"
            do {
                _ = try api.record()
            } catch {
                throw SeedConfigurationError(file: source, path: "\(path).\(error.field)", reason: error.reason)
            }
            guard apiIdentifiers.insert(api.identifier).inserted else {
                throw SeedConfigurationError(
                    file: source, path: "\(path).identifier", reason: "\"\(api.identifier)\" appears twice; list each API once")
            }
        }
        var providerIDs = Set<String>()
        for (index, provider) in providers.enumerated() {
            let path = "providers[\(index)]"
            do {
                _ = try provider.record()
            } catch {
                throw SeedConfigurationError(file: source, path: "\(path).\(error.field)", reason: error.reason)
            }
            guard providerIDs.insert(provider.id).inserted else {
                throw SeedConfigurationError(
                    file: source, path: "\(path).id", reason: "\"\(provider.id)\" appears twice; give each provider its own id")
            }
        }
        var logins = Set<String>()
        for (index, user) in users.enumerated() {
            let path = "users[\(index)]"
            do {
                try UserValidation.checkUsername(user.username)
                try UserValidation.checkEmail(user.email)
                if let password = user.password {
                    try UserValidation.checkPassword(password, email: user.email, username: user.username)
                }
            } catch {
                throw SeedConfigurationError(file: source, path: "\(path).\(error.field)", reason: error.reason)
            }
            for (field, value) in [("username", user.username), ("email", user.email)] {
                guard logins.insert(value.lowercased()).inserted else {
                    throw SeedConfigurationError(
                        file: source, path: "\(path).\(field)",
                        reason: "\"\(value)\" is used by another user of this file; usernames and emails must be unique")
                }
            }
        }
    }
}
