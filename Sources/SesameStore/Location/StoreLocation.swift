import Foundation

/// Where the server's data lives: the embedded SQLite file (the default, one process) or a
/// PostgreSQL database that several `sesame serve` processes share.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// `sesame.sqlite` in the data directory.
    case sqlite(DataDirectory)
    /// A PostgreSQL database, through a pool of at most `poolSize` connections per process.
    case postgres(DatabaseURL, poolSize: Int)

    /// The default pool size: enough for a 2–4 core server; PostgreSQL's default
    /// `max_connections` (100) leaves room for several processes.
    public static let defaultPoolSize = 16

    /// Safe for logs: the password is never shown.
    public var description: String {
        switch self {
        case .sqlite(let directory): "SQLite at \(directory.databaseURL.path)"
        case .postgres(let url, let poolSize): "PostgreSQL at \(url) (pool of \(poolSize))"
        }
    }
}

extension DataDirectory: Equatable {
    public static func == (lhs: DataDirectory, rhs: DataDirectory) -> Bool { lhs.url == rhs.url }
}
