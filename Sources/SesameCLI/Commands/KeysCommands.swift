import ArgumentParser
import Foundation
import SesameServer

/// `sesame keys rotate|list`: the server's signing keys (published, active, retired; rotation
/// keeps the old key in the JWKS until every token it signed has expired).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage the server's signing keys.",
        subcommands: [List.self, Rotate.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the signing keys.")
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let keys = try await AdminSession.with(dataDir) { try await $0.keyRing.keys() }
                try KeySummary.print(keys, json: json.enabled)
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a new signing key and retire the current one (with overlap).")
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let keys = try await AdminSession.with(dataDir) { try await $0.rotateKeys() }
                if !json.enabled {
                    Terminal.out(
                        "Signing keys rotated; the previous keys stay published until their tokens expire. Running servers switch within about a second. New keys:")
                }
                try KeySummary.print(keys, json: json.enabled)
            }
        }
    }
}

/// A signing key as printed (never the sealed private key).
struct KeySummary: Encodable {
    var kid: String
    var algorithm: String
    var status: String
    var createdAt: Date
    var activatesAt: Date
    var retiredAt: Date?
    var expiresAt: Date?

    init(_ key: SigningKeyRecord, now: Date) {
        kid = key.kid
        algorithm = key.algorithm
        createdAt = key.createdAt
        activatesAt = key.activatesAt
        retiredAt = key.retiredAt
        expiresAt = key.expiresAt
        if let expiresAt = key.expiresAt, expiresAt <= now {
            status = "expired"
        } else if let retiredAt = key.retiredAt, retiredAt <= now {
            status = "retired"
        } else if key.activatesAt > now {
            status = "published"
        } else {
            status = "active"
        }
    }

    enum CodingKeys: String, CodingKey {
        case kid, algorithm, status
        case createdAt = "created_at"
        case activatesAt = "activates_at"
        case retiredAt = "retired_at"
        case expiresAt = "expires_at"
    }

    static func print(_ keys: [SigningKeyRecord], json: Bool) throws {
        let now = Date()
        let summaries = keys.sorted { $0.createdAt < $1.createdAt }.map { KeySummary($0, now: now) }
        if json {
            try Terminal.json(summaries)
            return
        }
        if summaries.isEmpty {
            Terminal.out("No signing keys yet; the server creates one on first start.")
        }
        let format = ISO8601DateFormatter()
        for key in summaries {
            Terminal.out(
                "\(key.kid)  \(key.algorithm)  \(key.status)  created \(format.string(from: key.createdAt))")
        }
    }
}
