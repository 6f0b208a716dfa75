import Foundation
import SesameProtocol
import SesameStore

/// What `/token` answers for a refresh token that exists but can no longer be used (RFC 6749
/// §5.2 `invalid_grant`), and what the audit log records of it. Two cases are told apart:
/// - **reuse** (RFC 9700 §4.14.2): the token was rotated before, so it is presented a second
///   time. When its family is still live, the family is revoked (`reused`) and the event is
///   `refresh.reuse_detected`; the one case that is a security alarm.
/// - **a token of an ended family** that was never used: the rightful client did nothing
///   wrong; the family ended for a reason recorded with it (revoked, signed out, a replayed
///   code, a PIN lockout, …). The answer says that reason and the event is `refresh.refused`.
package struct SpentRefreshToken: Sendable {
    package let store: any IdentityStore
    package let metrics: any ProviderMetrics
    package let audit: AuditLog
    package let now: Date

    /// Throws the answer for `record`, a token the rotation refused although it exists.
    package func refuse(_ record: RefreshTokenRecord, client: ClientRecord, origin: RequestOrigin?) async throws -> Never {
        let reason = try await store.refreshFamilyRevocationReason(record.familyID)
        let user = record.authentication.userID
        guard record.rotatedAt != nil else {
            // Never used: the family ended for `reason` (a token revoked alone has none recorded).
            let said = reason ?? .revoked
            audit.record(
                .refreshRefused, reason: said.rawValue, origin: origin, clientID: client.clientID, userID: user)
            throw Self.failure(for: said)
        }
        switch reason {
        case nil:
            try await store.revokeRefreshFamily(record.familyID, now: now, reason: .reused)
            metrics.refreshTokenReuse()
            audit.record(
                .refreshReuseDetected, reason: "reused", origin: origin, clientID: client.clientID, userID: user,
                detail: ["family_revoked": "true"])
            throw ProviderFailure(
                .invalidGrant,
                "The refresh token was already used, so it may have been copied; the session has been revoked. Sign the user in again.")
        case .presentedByAnotherClient?, .signedOutEverywhere?:
            // The rightful client is told what ended its session, as for a token never used.
            throw Self.failure(for: reason ?? .revoked)
        case let ended?:
            audit.record(
                .refreshReuseDetected, reason: "reused", origin: origin, clientID: client.clientID, userID: user,
                detail: ["family_revoked": "false", "family_ended": ended.rawValue])
            var failure = Self.failure(for: ended)
            failure.description = "The refresh token was already used, and its session had ended: " + (failure.description ?? "")
            throw failure
        }
    }

    /// The answer for a token of a family that ended for `reason`: what happened and what to do.
    package static func failure(for reason: RefreshFamilyRevocationReason) -> ProviderFailure {
        switch reason {
        case .presentedByAnotherClient: return RefreshTokenGrant.leaked
        case .signedOutEverywhere: return RefreshTokenGrant.endedElsewhere
        case .reused:
            return ProviderFailure(
                .invalidGrant,
                "This session was revoked because one of its refresh tokens was used twice, which suggests a copied token; sign the user in again.")
        case .revoked:
            return ProviderFailure(.invalidGrant, "The refresh token was revoked (RFC 7009); sign the user in again.")
        case .codeReplayed:
            return ProviderFailure(
                .invalidGrant,
                "This session was revoked because the authorization code it came from was presented twice (RFC 6749 section 4.1.2); sign the user in again.")
        case .signedOut:
            return ProviderFailure(.invalidGrant, "The user signed out of this session; sign in again.")
        case .credentialsChanged:
            return ProviderFailure(
                .invalidGrant, "The account's password was changed or reset, which ends its other sessions; sign in again.")
        case .pinLocked:
            return ProviderFailure(
                .invalidGrant,
                "The PIN registration of this session was revoked after too many wrong PINs; sign in again and register a new PIN.")
        case .pinRemoved:
            return ProviderFailure(
                .invalidGrant, "The PIN registration of this session was removed; sign in again.")
        case .administrator:
            return ProviderFailure(
                .invalidGrant,
                "An administrator ended this session (the account may have been disabled); sign in again, or contact support.")
        case .evicted:
            return ProviderFailure(
                .invalidGrant,
                "This session was closed because the account has more live sessions than the server keeps (the least recently used ones are closed); sign in again.")
        }
    }
}
