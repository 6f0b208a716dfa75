import Foundation
import SesameProtocol
import Testing
@testable import SesameStore
import StoreTesting

/// Single use of authorization codes and rotation of refresh tokens, decided atomically.
@Suite("Store: codes and refresh tokens")
struct StoreRedemptionTests {
    enum Outcome: Equatable { case redeemed, replayed, notFound }

    static func outcome<R>(_ result: RedemptionResult<R>) -> Outcome {
        switch result {
        case .redeemed: .redeemed
        case .replayed: .replayed
        case .notFound: .notFound
        }
    }

    @Test("a code is redeemed once; the second use is a replay carrying the family", arguments: StoreBackend.available)
    func codeSingleUse(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let code = StoreSamples.code(expiresAt: now.addingTimeInterval(60))
            try await store.insertAuthorizationCode(code)

            guard case .redeemed(let redeemed) = try await store.redeemAuthorizationCode(digest: code.codeDigest, now: now)
            else { Issue.record("first redemption did not win"); return }
            #expect(redeemed.consumedAt == now)
            #expect(redeemed.authentication == code.authentication)
            #expect(redeemed.codeChallenge == code.codeChallenge)
            #expect(redeemed.nonce == code.nonce)

            try await store.setAuthorizationCodeFamily(digest: code.codeDigest, familyID: "family-1")
            guard case .replayed(let replayed) = try await store.redeemAuthorizationCode(
                digest: code.codeDigest, now: now.addingTimeInterval(1))
            else { Issue.record("second redemption was not a replay"); return }
            #expect(replayed.familyID == "family-1")
            #expect(replayed.consumedAt == now)

            let unknown = try await store.redeemAuthorizationCode(digest: SecretDigest.of("nope"), now: now)
            #expect(Self.outcome(unknown) == .notFound)
        }
    }

    @Test("a code without a PKCE challenge keeps having none (stored as the empty string)", arguments: StoreBackend.available)
    func codeWithoutChallenge(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            var code = StoreSamples.code(expiresAt: now.addingTimeInterval(60))
            code.codeChallenge = nil
            try await store.insertAuthorizationCode(code)
            guard case .redeemed(let redeemed) = try await store.redeemAuthorizationCode(digest: code.codeDigest, now: now)
            else { Issue.record("redemption did not win"); return }
            #expect(redeemed.codeChallenge == nil)
            #expect(StoredCodeChallenge.column(nil) == "")
            #expect(StoredCodeChallenge.challenge("") == nil)
            #expect(StoredCodeChallenge.challenge(PKCE().challenge) != nil)
        }
    }

    @Test("20 concurrent redemptions of one code: exactly one wins", arguments: StoreBackend.available)
    func concurrentCodeRedemption(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let code = StoreSamples.code(expiresAt: now.addingTimeInterval(60))
            try await store.insertAuthorizationCode(code)
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        Self.outcome(try await store.redeemAuthorizationCode(digest: code.codeDigest, now: now))
                    }
                }
                return try await group.reduce(into: [Outcome]()) { $0.append($1) }
            }
            #expect(outcomes.count == 20)
            #expect(outcomes.filter { $0 == .redeemed }.count == 1)
            #expect(outcomes.filter { $0 == .replayed }.count == 19)
        }
    }

    @Test("an unused expired code is not found; a used one is a replay even after it expired", arguments: StoreBackend.available)
    func expiredCode(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let code = StoreSamples.code(expiresAt: now.addingTimeInterval(60))
            try await store.insertAuthorizationCode(code)
            let late = try await store.redeemAuthorizationCode(digest: code.codeDigest, now: now.addingTimeInterval(60))
            #expect(Self.outcome(late) == .notFound)
            let onTime = try await store.redeemAuthorizationCode(digest: code.codeDigest, now: now.addingTimeInterval(59))
            #expect(Self.outcome(onTime) == .redeemed)
            // RFC 6749 §4.1.2: a replay is detected for as long as the row exists, so the
            // tokens of the first use can be revoked.
            let replayLate = try await store.redeemAuthorizationCode(digest: code.codeDigest, now: now.addingTimeInterval(61))
            #expect(Self.outcome(replayLate) == .replayed)
            let muchLater = try await store.redeemAuthorizationCode(digest: code.codeDigest, now: now.addingTimeInterval(3600))
            #expect(Self.outcome(muchLater) == .replayed)
        }
    }

    @Test("a refresh token rotates once into its successor; reuse is a replay; expired is not found", arguments: StoreBackend.available)
    func refreshRotation(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let token = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(3600))
            try await store.insertRefreshToken(token)
            let successor = StoreSamples.successor(at: now, lifetime: 7200)
            guard case .redeemed(let rotated) = try await store.rotateRefreshToken(digest: token.tokenDigest, into: successor)
            else { Issue.record("first rotation did not win"); return }
            // The successor inherits family, client, scope, authentication and session.
            #expect(rotated.tokenDigest == successor.tokenDigest)
            #expect(rotated.familyID == token.familyID)
            #expect(rotated.clientID == token.clientID)
            #expect(rotated.scope == token.scope)
            #expect(rotated.authentication == token.authentication)
            #expect(rotated.sessionID == token.sessionID)
            #expect(rotated.issuedAt == now)
            #expect(rotated.expiresAt == now.addingTimeInterval(7200))
            #expect(rotated.rotatedAt == nil)
            #expect(try await store.refreshToken(digest: successor.tokenDigest) == rotated)
            // The presented token reads as rotated at the successor's issue time.
            #expect(try await store.refreshToken(digest: token.tokenDigest)?.rotatedAt == now)

            let again = try await store.rotateRefreshToken(digest: token.tokenDigest, into: StoreSamples.successor(at: now.addingTimeInterval(1)))
            #expect(Self.outcome(again) == .replayed)
            // The successor rotates in turn.
            let next = try await store.rotateRefreshToken(digest: successor.tokenDigest, into: StoreSamples.successor(at: now))
            #expect(Self.outcome(next) == .redeemed)

            let expiring = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(10))
            try await store.insertRefreshToken(expiring)
            let expired = try await store.rotateRefreshToken(digest: expiring.tokenDigest, into: StoreSamples.successor(at: now.addingTimeInterval(10)))
            #expect(Self.outcome(expired) == .notFound)
            let missing = try await store.rotateRefreshToken(digest: SecretDigest.of("nope"), into: StoreSamples.successor(at: now))
            #expect(Self.outcome(missing) == .notFound)
        }
    }

    @Test("a withdrawn successor makes the presented token current again", arguments: StoreBackend.available)
    func withdrawRotation(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let token = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(3600))
            try await store.insertRefreshToken(token)
            let first = StoreSamples.successor(at: now)
            #expect(Self.outcome(try await store.rotateRefreshToken(digest: token.tokenDigest, into: first)) == .redeemed)
            try await store.withdrawRefreshToken(successorDigest: first.tokenDigest)
            #expect(try await store.refreshToken(digest: first.tokenDigest) == nil)
            #expect(try await store.refreshToken(digest: token.tokenDigest)?.rotatedAt == nil)
            #expect(Self.outcome(try await store.rotateRefreshToken(digest: token.tokenDigest, into: StoreSamples.successor(at: now))) == .redeemed)
            // Withdrawing never deletes a token that starts a family.
            try await store.withdrawRefreshToken(successorDigest: token.tokenDigest)
            #expect(try await store.refreshToken(digest: token.tokenDigest) != nil)
        }
    }

    @Test("a token marked rotated_at (rows rotated before successor links) is a replay", arguments: StoreBackend.available)
    func legacyRotatedRow(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            var token = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(3600))
            token.rotatedAt = now.addingTimeInterval(-60)
            try await store.insertRefreshToken(token)
            let outcome = try await store.rotateRefreshToken(digest: token.tokenDigest, into: StoreSamples.successor(at: now))
            #expect(Self.outcome(outcome) == .replayed)
        }
    }

    @Test("20 concurrent rotations of one refresh token: exactly one wins", arguments: StoreBackend.available)
    func concurrentRotation(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let token = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(3600))
            try await store.insertRefreshToken(token)
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for _ in 0..<20 {
                    group.addTask { Self.outcome(try await store.rotateRefreshToken(digest: token.tokenDigest, into: StoreSamples.successor(at: now))) }
                }
                return try await group.reduce(into: [Outcome]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .redeemed }.count == 1)
            #expect(outcomes.filter { $0 == .replayed }.count == 19)
        }
    }

    @Test("revoking a family revokes all its tokens, and a successor inserted later cannot rotate", arguments: StoreBackend.available)
    func familyRevocation(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let later = now.addingTimeInterval(3600)
            let first = StoreSamples.refreshToken(family: "fam-a", expiresAt: later)
            let second = StoreSamples.refreshToken(family: "fam-a", expiresAt: later)
            let other = StoreSamples.refreshToken(family: "fam-b", expiresAt: later)
            for token in [first, second, other] { try await store.insertRefreshToken(token) }
            #expect(try await store.isRefreshFamilyRevoked("fam-a") == false)

            try await store.revokeRefreshFamily("fam-a", now: now, reason: .revoked)
            #expect(try await store.isRefreshFamilyRevoked("fam-a"))
            #expect(try await store.isRefreshFamilyRevoked("fam-b") == false)
            #expect(try await store.refreshToken(digest: first.tokenDigest)?.revokedAt == now)
            #expect(try await store.refreshToken(digest: second.tokenDigest)?.revokedAt == now)
            #expect(try await store.refreshToken(digest: other.tokenDigest)?.revokedAt == nil)

            // A revoked token presented again is a replay (so the caller revokes again).
            let revoked = try await store.rotateRefreshToken(digest: second.tokenDigest, into: StoreSamples.successor(at: now))
            #expect(Self.outcome(revoked) == .replayed)
            // A successor written concurrently with the revocation cannot be used either.
            let straggler = StoreSamples.refreshToken(family: "fam-a", expiresAt: later)
            try await store.insertRefreshToken(straggler)
            let late = try await store.rotateRefreshToken(digest: straggler.tokenDigest, into: StoreSamples.successor(at: now))
            #expect(Self.outcome(late) == .replayed)
            let unaffected = try await store.rotateRefreshToken(digest: other.tokenDigest, into: StoreSamples.successor(at: now))
            #expect(Self.outcome(unaffected) == .redeemed)
        }
    }

    @Test("logout revokes the refresh tokens of that browser session only", arguments: StoreBackend.available)
    func revokeBySession(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let later = now.addingTimeInterval(3600)
            let mine = StoreSamples.refreshToken(sessionID: "sid-1", expiresAt: later)
            let theirs = StoreSamples.refreshToken(sessionID: "sid-2", expiresAt: later)
            try await store.insertRefreshToken(mine)
            try await store.insertRefreshToken(theirs)
            try await store.revokeRefreshTokens(sessionID: "sid-1", now: now)
            #expect(try await store.refreshToken(digest: mine.tokenDigest)?.revokedAt == now)
            #expect(try await store.isRefreshFamilyRevoked(mine.familyID))
            #expect(try await store.refreshToken(digest: theirs.tokenDigest)?.revokedAt == nil)
            #expect(Self.outcome(try await store.rotateRefreshToken(digest: mine.tokenDigest, into: StoreSamples.successor(at: now))) == .replayed)
            #expect(Self.outcome(try await store.rotateRefreshToken(digest: theirs.tokenDigest, into: StoreSamples.successor(at: now))) == .redeemed)
        }
    }

    @Test("a presented access token is withdrawn by its jti or by its family, in one statement", arguments: StoreBackend.available)
    func accessTokenWithdrawn(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            #expect(try await store.isAccessTokenWithdrawn(jti: "jti-1", familyID: "family-1") == false)
            #expect(try await store.isAccessTokenWithdrawn(jti: "jti-1", familyID: nil) == false)
            try await store.revokeRefreshFamily("family-1", now: now, reason: .signedOut)
            #expect(try await store.isAccessTokenWithdrawn(jti: "jti-1", familyID: "family-1"))
            #expect(try await store.isAccessTokenWithdrawn(jti: "jti-1", familyID: "family-2") == false)
            #expect(try await store.isAccessTokenWithdrawn(jti: "jti-1", familyID: nil) == false)
            try await store.revokeAccessToken(jti: "jti-2", expiresAt: now.addingTimeInterval(300))
            #expect(try await store.isAccessTokenWithdrawn(jti: "jti-2", familyID: "family-2"))
            #expect(try await store.isAccessTokenWithdrawn(jti: "jti-2", familyID: nil))
            #expect(try await store.isAccessTokenWithdrawn(jti: "jti-3", familyID: "family-2") == false)
        }
    }

    @Test("access-token revocation is remembered until the token's expiry", arguments: StoreBackend.available)
    func accessTokenRevocation(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            #expect(try await store.isAccessTokenRevoked(jti: "jti-1") == false)
            try await store.revokeAccessToken(jti: "jti-1", expiresAt: now.addingTimeInterval(300))
            try await store.revokeAccessToken(jti: "jti-1", expiresAt: now.addingTimeInterval(300))
            #expect(try await store.isAccessTokenRevoked(jti: "jti-1"))
            #expect(try await store.isAccessTokenRevoked(jti: "jti-2") == false)
            try await store.purgeExpired(now: now.addingTimeInterval(299))
            #expect(try await store.isAccessTokenRevoked(jti: "jti-1"))
            try await store.purgeExpired(now: now.addingTimeInterval(300))
            #expect(try await store.isAccessTokenRevoked(jti: "jti-1") == false)
        }
    }

    @Test("browser sessions are stored by digest and removed by digest or sid", arguments: StoreBackend.available)
    func browserSessions(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let later = StoreSamples.now().addingTimeInterval(3600)
            let first = StoreSamples.session(sid: "sid-a", expiresAt: later)
            let second = StoreSamples.session(sid: "sid-b", expiresAt: later)
            try await store.insertBrowserSession(first)
            try await store.insertBrowserSession(second)
            #expect(try await store.browserSession(idDigest: first.idDigest) == first)
            try await store.removeBrowserSession(idDigest: first.idDigest)
            #expect(try await store.browserSession(idDigest: first.idDigest) == nil)
            #expect(try await store.browserSession(idDigest: second.idDigest) == second)
            try await store.removeBrowserSession(sid: "sid-b")
            #expect(try await store.browserSession(idDigest: second.idDigest) == nil)
        }
    }

    @Test("purgeExpired removes expired codes, tokens and sessions and keeps live ones", arguments: StoreBackend.available)
    func purgeExpired(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let soon = now.addingTimeInterval(10)
            let later = now.addingTimeInterval(3600)
            let oldCode = StoreSamples.code(expiresAt: soon)
            let liveCode = StoreSamples.code(expiresAt: later)
            let oldToken = StoreSamples.refreshToken(expiresAt: soon)
            let liveToken = StoreSamples.refreshToken(expiresAt: later)
            let oldSession = StoreSamples.session(expiresAt: soon)
            let liveSession = StoreSamples.session(expiresAt: later)
            try await store.insertAuthorizationCode(oldCode)
            try await store.insertAuthorizationCode(liveCode)
            try await store.insertRefreshToken(oldToken)
            try await store.insertRefreshToken(liveToken)
            try await store.insertBrowserSession(oldSession)
            try await store.insertBrowserSession(liveSession)

            try await store.purgeExpired(now: soon)
            #expect(try await store.refreshToken(digest: oldToken.tokenDigest) == nil)
            #expect(try await store.refreshToken(digest: liveToken.tokenDigest) != nil)
            #expect(try await store.browserSession(idDigest: oldSession.idDigest) == nil)
            #expect(try await store.browserSession(idDigest: liveSession.idDigest) != nil)
            let codeRows = try await store.database.select().column("code_digest").from("authorization_codes")
                .all(decodingColumn: "code_digest", as: String.self)
            #expect(codeRows == [liveCode.codeDigest])
        }
    }
}
