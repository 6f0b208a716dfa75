import Foundation
import Logging
import SesameProtocol
import SesameStore

/// Sample records.
public enum StoreSamples {
    public static let logger: Logger = {
        var logger = Logger(label: "sesame.store-tests")
        logger.logLevel = .error
        return logger
    }()

    /// The current time at whole-second precision, so stored instants compare exactly.
    public static func now() -> Date { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }

    public static func client(_ id: String = "demo", secretHash: String? = nil) -> ClientRecord {
        ClientRecord(
            clientID: id, name: "Demo \(id)", secretHash: secretHash,
            redirectURIs: ["http://127.0.0.1/callback", "com.example.app:/cb"],
            postLogoutRedirectURIs: ["com.example.app:/bye"],
            tokenEndpointAuthMethod: secretHash == nil ? .none : .clientSecretBasic,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.25))
    }

    public static func user(_ username: String = "alice", email: String? = nil) -> UserRecord {
        var claims = StandardClaims(sub: "")
        claims.name = "\(username.capitalized) Example"
        claims.givenName = username.capitalized
        return UserRecord(
            username: username, email: email ?? "\(username)@example.com", emailVerified: true,
            passwordHash: "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0c2E$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g",
            claims: claims, createdAt: Date(timeIntervalSince1970: 1_700_000_000.5),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_001.75))
    }

    public static func authentication(userID: String = "user-1", at date: Date = StoreSamples.now()) -> AuthenticationContext {
        AuthenticationContext(userID: userID, authTime: date, acr: "1", amr: ["pwd"])
    }

    package static func code(
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

    package static func refreshToken(
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
    public static func successor(at now: Date, lifetime: TimeInterval = 3600) -> RefreshTokenSuccessor {
        RefreshTokenSuccessor(
            tokenDigest: SecretDigest.of(SecureRandom.token()), issuedAt: now,
            expiresAt: now.addingTimeInterval(lifetime))
    }

    package static func session(
        _ digest: String = SecretDigest.of(SecureRandom.token()), sid: String = UUID().uuidString,
        userID: String = "user-1", expiresAt: Date
    ) -> BrowserSessionRecord {
        BrowserSessionRecord(
            idDigest: digest, sid: sid, authentication: authentication(userID: userID),
            createdAt: StoreSamples.now(), expiresAt: expiresAt)
    }
}
