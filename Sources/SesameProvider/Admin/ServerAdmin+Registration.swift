import Foundation
import SesameProtocol
import SesameStore

extension ServerAdmin {
    /// A new initial access token (RFC 7591 §3) for `sesame serve --registration token`: good for
    /// `uses` registrations within `lifetime` seconds. Returned once; only its digest is stored.
    public func createInitialAccessToken(uses: Int, lifetime: TimeInterval, now: Date = Date()) async throws -> String {
        guard (1...10_000).contains(uses) else {
            throw AdminError.invalidInitialAccessToken(field: "uses", reason: "give 1 to 10000 registrations")
        }
        guard lifetime >= 60, lifetime <= 365 * 86_400 else {
            throw AdminError.invalidInitialAccessToken(field: "expires_in", reason: "give 60 seconds to 365 days")
        }
        let token = SecureRandom.token()
        try await store.insertInitialAccessToken(
            InitialAccessTokenRecord(
                digest: SecretDigest.of(token), createdAt: now, expiresAt: now.addingTimeInterval(lifetime), usesLeft: uses))
        try await audit(.initialAccessTokenCreated, detail: ["uses": "\(uses)", "expires_in": "\(Int(lifetime))"])
        return token
    }
}
