import SesameStore
import Foundation

/// Applies a ``SeedConfiguration`` to a store at start. Idempotent: clients are
/// upserted (a client whose stored secret already matches keeps its hash, so restarts do not
/// re-hash); users that exist, matched by username or email, are left as they are, so
/// passwords changed since are not reset; missing users are created.
public struct Seeder: Sendable {
    package let store: any ProviderStore
    package let hasher: any PasswordHasher

    public init(store: any ProviderStore, hasher: any PasswordHasher) {
        self.store = store
        self.hasher = hasher
    }

    public func apply(_ seed: SeedConfiguration) async throws -> SeedReport {
        try seed.validate(source: "seed configuration")
        var report = SeedReport()
        var changes: [AuditRecord] = []
        for api in seed.apis {
            var record = try api.record()
            if let existing = try await store.api(identifier: api.identifier) {
                record.createdAt = existing.createdAt
                if existing == record { continue }
            }
            try await store.upsertAPI(record)
            report.apisApplied += 1
            changes.append(AuditEvent.apiAdded.adminRecord(via: "seed file", detail: ["api": api.identifier]))
        }
        for client in seed.clients {
            let existing = try await store.client(id: client.clientID)
            let secretHash: String?
            if let secret = client.secret {
                if let stored = existing?.secretHash, hasher.verify(secret, against: stored),
                    !hasher.needsRehash(stored)
                {
                    secretHash = stored
                } else {
                    secretHash = try hasher.hash(secret)
                }
            } else {
                secretHash = nil
            }
            var record = try client.record(secretHash: secretHash)
            try await APIValidation.checkRegistered(record.resources, store: store)
            if let existing {
                record.createdAt = existing.createdAt
                if existing == record {
                    report.clientsUnchanged += 1
                    continue
                }
                report.clientsUpdated += 1
            } else {
                report.clientsCreated += 1
            }
            try await store.upsertClient(record)
            changes.append(
                (existing == nil ? AuditEvent.clientAdded : .clientUpdated)
                    .adminRecord(via: "seed file", detail: ["client_id": client.clientID]))
        }
        for user in seed.users {
            let byUsername = try await store.user(login: user.username)
            let byEmail = try await store.user(login: user.email)
            if byUsername != nil || byEmail != nil {
                report.usersExisting += 1
                continue
            }
            let record = UserRecord(
                username: user.username, email: user.email,
                emailVerified: user.emailVerified ?? false,
                passwordHash: try user.password.map(hasher.hash), claims: user.claims)
            try await store.createUser(record)
            report.usersCreated += 1
            changes.append(
                AuditEvent.userAdded.adminRecord(via: "seed file", userID: record.id))
        }
        if !seed.providers.isEmpty {
            for provider in seed.providers {
                let existing = try await store.federationProvider(id: provider.id)
                var record = try provider.record()
                if let existing {
                    record.createdAt = existing.createdAt
                    if existing == record { continue }
                }
                try await store.upsertFederationProvider(record)
                report.providersApplied += 1
                changes.append(AuditEvent.providerAdded.adminRecord(via: "seed file", detail: ["provider": provider.id]))
            }
        }
        // Changes only: a start that finds everything as seeded records nothing.
        try await store.appendAuditRecords(changes)
        return report
    }
}

/// What ``Seeder/apply(_:)`` changed.
public struct SeedReport: Sendable, Equatable, CustomStringConvertible {
    public var clientsCreated = 0
    public var clientsUpdated = 0
    public var clientsUnchanged = 0
    public var usersCreated = 0
    /// Users of the seed that already existed (left untouched).
    public var usersExisting = 0
    /// Federation providers created or changed.
    public var providersApplied = 0
    /// APIs created or changed.
    public var apisApplied = 0

    public init() {}

    public var description: String {
        "clients: \(clientsCreated) created, \(clientsUpdated) updated, \(clientsUnchanged) unchanged; users: \(usersCreated) created, \(usersExisting) already present"
    }
}
