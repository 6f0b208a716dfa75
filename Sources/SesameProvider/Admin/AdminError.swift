import SesameStore
import Foundation

/// Failures of administrative operations (`sesame client|user|keys ...`). Each message says
/// what to do.
public enum AdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A client field breaks a rule; `field` uses RFC 7591 metadata names.
    case invalidClient(field: String, reason: String)
    /// A user field breaks a rule.
    case invalidUser(field: String, reason: String)
    case clientExists(id: String)
    case clientNotFound(id: String)
    /// `field` is `username` or `email`.
    case userExists(field: String, value: String)
    case userNotFound(login: String)
    /// A federation provider's registration breaks a rule.
    case invalidProvider(field: String, reason: String)
    case providerNotFound(id: String)
    /// An API's registration breaks a rule (RFC 8707 resource; ``APIValidation``).
    case invalidAPI(field: String, reason: String)
    case apiNotFound(identifier: String)
    /// An initial access token's terms break a rule (RFC 7591 §3; `uses`, `expires_in`).
    case invalidInitialAccessToken(field: String, reason: String)

    public var description: String {
        switch self {
        case .invalidClient(let field, let reason): "\(field): \(reason)"
        case .invalidUser(let field, let reason): "\(field): \(reason)"
        case .clientExists(let id):
            "a client with id \"\(id)\" already exists; choose another id or remove it first with `sesame client remove \(id)`"
        case .clientNotFound(let id):
            "there is no client with id \"\(id)\"; list the clients with `sesame client list`"
        case .userExists(let field, let value):
            "a user with \(field) \"\(value)\" already exists; choose another \(field) or remove that user first with `sesame user remove`"
        case .userNotFound(let login):
            "there is no user \"\(login)\" (looked up by id, username and email); list the users with `sesame user list`"
        case .invalidProvider(let field, let reason): "\(field): \(reason)"
        case .providerNotFound(let id):
            "there is no federation provider \"\(id)\"; list them with `sesame provider list`"
        case .invalidAPI(let field, let reason): "\(field): \(reason)"
        case .apiNotFound(let identifier):
            "there is no API \"\(identifier)\"; list them with `sesame api list`"
        case .invalidInitialAccessToken(let field, let reason): "\(field): \(reason)"
        }
    }
}
