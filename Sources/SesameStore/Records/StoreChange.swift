import Foundation

/// A change one process made that the others' caches must see at once (issue #47: "a change
/// made through one process is seen by the others at once"). On PostgreSQL the writer sends it
/// with `NOTIFY sesame_changes` and every process of the deployment hears it
/// (the PostgreSQL change listener); SQLite serves one server process, whose own writes already
/// update its caches.
public enum StoreChange: Sendable, Equatable {
    /// A client was registered, changed or removed.
    case client(String)
    /// A signing key was added, retired or removed.
    case signingKeys
    /// Changes may have been missed (the listening connection was re-established): drop every
    /// cached value.
    case everything

    /// The notification's payload (at most 8000 bytes in PostgreSQL; a client id is ≤ 255).
    var payload: String {
        switch self {
        case .client(let id): "client:" + id
        case .signingKeys: "keys"
        case .everything: "*"
        }
    }

    init?(payload: String) {
        if payload == "keys" {
            self = .signingKeys
        } else if payload == "*" {
            self = .everything
        } else if payload.hasPrefix("client:") {
            self = .client(String(payload.dropFirst("client:".count)))
        } else {
            return nil
        }
    }
}
