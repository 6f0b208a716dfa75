import Foundation
import Logging
import SesameProtocol
@testable import SesameServer

// Shared helpers for the store, key-ring, seed and admin tests (no tests in this file).

/// A unique temporary data directory holding a real SQLite store. Always call ``remove()``.
struct StoreSandbox: Sendable {
    let directory: URL

    static func make() throws -> StoreSandbox {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return StoreSandbox(directory: directory)
    }

    var dataDirectory: DataDirectory { DataDirectory(url: directory) }
    var databaseURL: URL { dataDirectory.databaseURL }

    func open(clientCacheLifetime: Duration = .seconds(2)) async throws -> SQLIdentityStore {
        try await SQLIdentityStore.openSQLite(
            at: databaseURL, logger: StoreSamples.logger, clientCacheLifetime: clientCacheLifetime)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh store in a fresh directory; closes and deletes both afterwards.
func withSandboxStore<T>(
    _ body: (SQLIdentityStore, StoreSandbox) async throws -> T
) async throws -> T {
    let sandbox = try StoreSandbox.make()
    defer { sandbox.remove() }
    let store = try await sandbox.open()
    do {
        let result = try await body(store, sandbox)
        try await store.close()
        return result
    } catch {
        try? await store.close()
        throw error
    }
}

/// A clock the key-ring tests move forward instead of sleeping.
final class SandboxClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date()) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

import Synchronization

/// Sample records.
enum StoreSamples {
    static let logger: Logger = {
        var logger = Logger(label: "sesame.store-tests")
        logger.logLevel = .error
        return logger
    }()

    static let hasher = ScryptPasswordHasher(logN: 10)

    /// The current time at whole-second precision, so stored instants compare exactly.
    static func now() -> Date { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }

    static func client(_ id: String = "demo", secretHash: String? = nil) -> ClientRecord {
        ClientRecord(
            clientID: id, name: "Demo \(id)", secretHash: secretHash,
            redirectURIs: ["http://127.0.0.1/callback", "com.example.app:/cb"],
            postLogoutRedirectURIs: ["com.example.app:/bye"],
            tokenEndpointAuthMethod: secretHash == nil ? .none : .clientSecretBasic,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.25))
    }

    static func user(_ username: String = "alice", email: String? = nil) -> UserRecord {
        var claims = StandardClaims(sub: "")
        claims.name = "\(username.capitalized) Example"
        claims.givenName = username.capitalized
        return UserRecord(
            username: username, email: email ?? "\(username)@example.com", emailVerified: true,
            passwordHash: "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0c2E$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g",
            claims: claims, createdAt: Date(timeIntervalSince1970: 1_700_000_000.5),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_001.75))
    }

    static func authentication(userID: String = "user-1", at date: Date = StoreSamples.now()) -> AuthenticationContext {
        AuthenticationContext(userID: userID, authTime: date, acr: "1", amr: ["pwd"])
    }

    static func code(
        _ digest: String = SecretDigest.of(SecureRandom.token()), clientID: String = "demo",
        userID: String = "user-1", sessionID: String? = "sid-1", expiresAt: Date
    ) -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            codeDigest: digest, clientID: clientID, redirectURI: "http://127.0.0.1/callback",
            scope: "openid profile", nonce: "n-0S6_WzA2Mj",
            codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            authentication: authentication(userID: userID), sessionID: sessionID,
            expiresAt: expiresAt)
    }

    static func refreshToken(
        _ digest: String = SecretDigest.of(SecureRandom.token()), family: String = UUID().uuidString,
        clientID: String = "demo", userID: String = "user-1", sessionID: String? = "sid-1",
        issuedAt: Date = StoreSamples.now(), expiresAt: Date
    ) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenDigest: digest, familyID: family, clientID: clientID, scope: "openid offline_access",
            authentication: authentication(userID: userID), sessionID: sessionID, issuedAt: issuedAt,
            expiresAt: expiresAt)
    }

    /// A successor for a rotation at `now`, valid for an hour.
    static func successor(at now: Date, lifetime: TimeInterval = 3600) -> RefreshTokenSuccessor {
        RefreshTokenSuccessor(
            tokenDigest: SecretDigest.of(SecureRandom.token()), issuedAt: now,
            expiresAt: now.addingTimeInterval(lifetime))
    }

    static func session(
        _ digest: String = SecretDigest.of(SecureRandom.token()), sid: String = UUID().uuidString,
        userID: String = "user-1", expiresAt: Date
    ) -> BrowserSessionRecord {
        BrowserSessionRecord(
            idDigest: digest, sid: sid, authentication: authentication(userID: userID),
            createdAt: StoreSamples.now(), expiresAt: expiresAt)
    }
}
