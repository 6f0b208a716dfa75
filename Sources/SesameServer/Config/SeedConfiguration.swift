import Foundation
import SesameProtocol

/// The declarative seed file (SPEC §2) that creates clients and users at start:
///
/// ```json
/// {"clients":[{"client_id":"demo","name":"Demo","redirect_uris":["http://127.0.0.1/callback"],
///              "grant_types":["authorization_code","refresh_token"],"token_endpoint_auth_method":"none",
///              "first_party":true,"mfa_policy":"when_enrolled"}],
///  "users":[{"username":"alice","email":"alice@example.com","password":"...","email_verified":true}]}
/// ```
///
/// JSON only: YAML is not supported (yet). Client keys are RFC 7591 §2 metadata names, user
/// profile keys OIDC Core §5.1 claim names; Sesame's own client keys are `mfa_policy`
/// (``MFAPolicy``) and `first_party` (default `false`; only first-party clients may use
/// `/authorize-challenge` and the account APIs, ``ClientRecord/firstParty``). A client `secret` is plaintext in the file and is
/// hashed on import; keep the file readable by the server's user only. Unknown keys are errors,
/// so typos do not pass silently. Apply with ``Seeder``.
public struct SeedConfiguration: Codable, Sendable, Equatable {
    public var clients: [ClientSeed]
    public var users: [UserSeed]

    public init(clients: [ClientSeed] = [], users: [UserSeed] = []) {
        self.clients = clients
        self.users = users
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case clients, users
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clients = try container.decodeIfPresent([ClientSeed].self, forKey: .clients) ?? []
        users = try container.decodeIfPresent([UserSeed].self, forKey: .users) ?? []
    }

    /// Reads, decodes and validates a seed file. Errors name the file, the entry and the field,
    /// e.g. `seed.json: clients[0].grant_types: "password" is not supported (RFC 9700 §2.4); use authorization_code`.
    public static func load(from url: URL) throws -> SeedConfiguration {
        let file = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SeedConfigurationError(
                file: file, path: "", reason: "cannot be read (\(error.localizedDescription)); check the path and permissions")
        }
        return try decode(data, source: file)
    }

    /// Decodes and validates seed JSON; `source` names it in errors.
    public static func decode(_ data: Data, source: String) throws -> SeedConfiguration {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw SeedConfigurationError(
                file: source, path: "", reason: "is not valid JSON (\(error.localizedDescription)); YAML is not supported, use JSON")
        }
        try checkKeys(json, source: source)
        let seed: SeedConfiguration
        do {
            seed = try JSONDecoder().decode(SeedConfiguration.self, from: data)
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
        var logins = Set<String>()
        for (index, user) in users.enumerated() {
            let path = "users[\(index)]"
            do {
                try UserValidation.checkUsername(user.username)
                try UserValidation.checkEmail(user.email)
                if let password = user.password { try UserValidation.checkPassword(password) }
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

    private static func checkKeys(_ json: Any, source: String) throws {
        guard let root = json as? [String: Any] else {
            throw SeedConfigurationError(
                file: source, path: "", reason: "must be a JSON object with \"clients\" and \"users\" arrays")
        }
        try rejectUnknownKeys(root, allowed: CodingKeys.allCases.map(\.rawValue), path: "", source: source)
        for (section, allowed) in [
            ("clients", ClientSeed.CodingKeys.allCases.map(\.rawValue)),
            ("users", UserSeed.CodingKeys.allCases.map(\.rawValue)),
        ] {
            guard let entries = root[section] as? [Any] else { continue }
            for (index, entry) in entries.enumerated() {
                guard let object = entry as? [String: Any] else {
                    throw SeedConfigurationError(
                        file: source, path: "\(section)[\(index)]", reason: "must be a JSON object")
                }
                try rejectUnknownKeys(object, allowed: allowed, path: "\(section)[\(index)].", source: source)
            }
        }
    }

    private static func rejectUnknownKeys(
        _ object: [String: Any], allowed: [String], path: String, source: String
    ) throws {
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw SeedConfigurationError(
                file: source, path: path + key,
                reason: "is not a known key; the known keys are \(allowed.joined(separator: ", "))")
        }
    }
}

/// A seed file problem: the file, the entry and field (`clients[0].grant_types`) and what to do.
public struct SeedConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// JSON path of the offending value, e.g. `users[1].email`; empty for the whole file.
    public var path: String
    public var reason: String

    public init(file: String, path: String, reason: String) {
        self.file = file
        self.path = path
        self.reason = reason
    }

    init(decoding error: DecodingError, file: String) {
        func render(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(file: file, path: render(context.codingPath), reason: "must be of type \(type)")
        case .valueNotFound(let type, let context):
            self.init(file: file, path: render(context.codingPath), reason: "must be a \(type), not null")
        case .keyNotFound(let key, let context):
            self.init(
                file: file, path: render(context.codingPath + [key]), reason: "is required; add it")
        case .dataCorrupted(let context):
            self.init(file: file, path: render(context.codingPath), reason: context.debugDescription)
        @unknown default:
            self.init(file: file, path: "", reason: "\(error)")
        }
    }

    public var description: String {
        path.isEmpty ? "\(file): \(reason)" : "\(file): \(path): \(reason)"
    }
}
