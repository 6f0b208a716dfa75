import Foundation
import SQLKit
import SesameProtocol

// Authorization codes (RFC 6749 §4.1.2): single use, short-lived, stored as digests.
extension SQLIdentityStore {
    public func insertAuthorizationCode(_ code: AuthorizationCodeRecord) async throws {
        let values: [any Encodable & Sendable] = [
            code.codeDigest, code.clientID, code.authentication.userID, code.redirectURI,
            code.scope, code.nonce, StoredCodeChallenge.column(code.codeChallenge),
            try StoreValue.json(code.authentication),
            code.sessionID, StoreValue.time(code.expiresAt), StoreValue.time(code.consumedAt),
            code.familyID, try code.claims.map(StoreValue.json), code.dpopJKT, ResourceColumn.value(code.resources),
        ]
        try await statement("authorization_codes.insert", values) { slots in
            database.insert(into: "authorization_codes")
                .columns(
                    "code_digest", "client_id", "user_id", "redirect_uri", "scope", "nonce",
                    "code_challenge", "authentication", "session_id", "expires_at", "consumed_at",
                    "family_id", "claims_request", "dpop_jkt", "resources"
                )
                .values(slots)
                .query
        }.run()
    }

    /// Single use, decided by one conditional `UPDATE` (RFC 6749 §4.1.2: "MUST NOT be used more
    /// than once"). The winner writes a random claim value into the row; re-reading the row by
    /// primary key tells each caller whether its own update took effect. This needs neither a
    /// transaction nor `RETURNING`, so it is atomic on every SQL database.
    ///
    /// A consumed code is a replay for as long as its row exists, also after it expired: RFC
    /// 6749 §4.1.2 asks to revoke the tokens issued from a code that is used twice, and an
    /// attacker replaying a stolen code is usually late. Only an unused code expires into
    /// `notFound`.
    public func redeemAuthorizationCode(digest: String, now: Date) async throws
        -> RedemptionResult<AuthorizationCodeRecord>
    {
        let claim = SecureRandom.uuid()
        // The row comes back only to the one statement that consumed it (`RETURNING`).
        let won = try await statement(
            "authorization_codes.redeem", [StoreValue.time(now), claim, digest, StoreValue.time(now)]
        ) { slots in
            database.update("authorization_codes")
                .set("consumed_at", to: slots[0])
                .set("redemption_claim", to: slots[1])
                .where("code_digest", .equal, slots[2])
                .where("consumed_at", .is, SQLLiteral.null)
                .where("expires_at", .greaterThan, slots[3])
                .returning("*")
                .query
        }.first()
        if let won { return .redeemed(try Self.codeRecord(won)) }
        // Lost: unknown, expired, or consumed before (a replay, which carries the family).
        guard
            let row = try await selectAll(from: "authorization_codes", where: "code_digest", equals: digest).first()
        else { return .notFound }
        let record = try Self.codeRecord(row)
        if record.consumedAt != nil { return .replayed(record) }
        return .notFound
    }

    public func setAuthorizationCodeFamily(digest: String, familyID: String) async throws {
        try await statement("authorization_codes.set_family", [familyID, digest]) { slots in
            database.update("authorization_codes")
                .set("family_id", to: slots[0])
                .where("code_digest", .equal, slots[1])
                .query
        }.run()
    }

    static func codeRecord(_ row: any SQLRow) throws -> AuthorizationCodeRecord {
        var record = AuthorizationCodeRecord(
            codeDigest: try row.string("code_digest"),
            clientID: try row.string("client_id"),
            redirectURI: try row.string("redirect_uri"),
            scope: try row.string("scope"),
            nonce: try row.optionalString("nonce"),
            codeChallenge: StoredCodeChallenge.challenge(try row.string("code_challenge")),
            authentication: try row.json("authentication", as: AuthenticationContext.self),
            sessionID: try row.optionalString("session_id"),
            expiresAt: try row.date("expires_at"),
            consumedAt: try row.optionalDate("consumed_at"),
            familyID: try row.optionalString("family_id"),
            claims: try row.optionalJSON("claims_request", as: ClaimsRequest.self),
            dpopJKT: try row.optionalString("dpop_jkt"))
        record.resources = ResourceColumn.resources(try row.optionalString("resources"))
        return record
    }
}
