import Foundation

/// A PostgreSQL connection URL as `sesame serve --database` and `SESAME_DATABASE_URL` take it:
/// `postgres://user:password@host:5432/database?sslmode=verify-full&sslrootcert=/path/ca.pem&connect_timeout=10`
/// (the libpq keywords, PostgreSQL 17 §32.1.2). `postgresql://` works too.
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// libpq's `sslmode` values that Sesame supports.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, without verifying the certificate.
        case prefer
        /// TLS always, without verifying the certificate (libpq's `require`).
        case require
        /// TLS always, the certificate verified against the CA file (or the system roots) and
        /// the host name checked.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// PEM file of the certificate authorities for `verify-full` (`sslrootcert`).
    public var certificateAuthorityFile: String?
    /// libpq's `connect_timeout`: seconds a new connection may take (default 5, at most 600). A
    /// statement waits as long (at least 10 s) for a pooled connection before the database
    /// counts as unavailable.
    public var connectTimeout: Int

    public static let defaultConnectTimeout = 5
    public static let connectTimeoutRange = 1...600

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        tls: TLSMode = .prefer, certificateAuthorityFile: String? = nil, connectTimeout: Int = DatabaseURL.defaultConnectTimeout
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.certificateAuthorityFile = certificateAuthorityFile
        self.connectTimeout = connectTimeout
    }

    /// Parses `text`; the error says what is wrong and what a correct URL looks like.
    public init(parsing text: String) throws(DatabaseURLError) {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme)
        else {
            throw .init("the database URL must start with postgres:// (for example postgres://sesame:secret@db.example.com:5432/sesame)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .init("the database URL names no host (postgres://user:password@HOST:5432/database)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw .init("the database URL names no user (postgres://USER:password@host:5432/database)")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw .init("the database URL names no database (postgres://user:password@host:5432/DATABASE)")
        }
        var tls = TLSMode.prefer
        var caFile: String?
        var connectTimeout = Self.defaultConnectTimeout
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw .init("sslmode '\(item.value ?? "")' is not supported; use \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = mode
            case "sslrootcert":
                caFile = item.value
            case "connect_timeout":
                guard let seconds = item.value.flatMap({ Int($0) }), Self.connectTimeoutRange.contains(seconds) else {
                    throw .init(
                        "connect_timeout '\(item.value ?? "")' must be a whole number of seconds from \(Self.connectTimeoutRange.lowerBound) to \(Self.connectTimeoutRange.upperBound)")
                }
                connectTimeout = seconds
            default:
                throw .init(
                    "the database URL parameter '\(item.name)' is not supported; Sesame reads sslmode, sslrootcert and connect_timeout")
            }
        }
        if caFile != nil && tls != .verifyFull {
            throw .init("sslrootcert is only used with sslmode=verify-full")
        }
        self.init(
            host: host, port: components.port ?? 5432, username: user.removingPercentEncoding ?? user,
            password: components.password.map { $0.removingPercentEncoding ?? $0 }, database: database,
            tls: tls, certificateAuthorityFile: caFile, connectTimeout: connectTimeout)
    }

    /// The URL with the password replaced by `***`: safe for logs and error messages.
    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)?sslmode=\(tls.rawValue)"
    }
}

/// A malformed database URL. The message says what to fix; it never contains the password.
public struct DatabaseURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
