import Foundation
import SesameProtocol

/// Errors from the store. Messages say what to do.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A unique field (client id, username, email) already exists.
    case conflict(field: String)
    case notFound(what: String)
    /// The database could not be opened, migrated or written.
    case unavailable(reason: String)

    public var description: String {
        switch self {
        case .conflict(let field): "\(field) is already taken; choose another"
        case .notFound(let what): "\(what) does not exist"
        case .unavailable(let reason): "the data store is unavailable: \(reason)"
        }
    }
}
