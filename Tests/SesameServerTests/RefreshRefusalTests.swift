import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing

@testable import SesameServer

/// Issue #28 §4: a refresh token that was never used, of a family that ended for a reason
/// (revoked, a replayed code, sign-out, a password change), is refused with that reason and
/// audited as `refresh.refused`, never as `refresh.reuse_detected`; only a rotated token
/// presented again is reuse. A replayed authorization code is audited (`code.replayed`).
@Suite("Refresh refusals say why")
struct RefreshRefusalTests {
    /// The audit records of the server, after the buffer was written.
    static func audit(_ server: TestServer) async throws -> [AuditRecord] {
        await server.running.flushAuditLog()
        let log = server.store
        return try await log.auditRecords(AuditQuery())
    }

    static func refused(_ response: TestResponse) throws -> String {
        #expect(response.status == 400)
        let error = try response.json(APIError.self)
        #expect(error.error == "invalid_grant")
        return error.errorDescription ?? ""
    }

    @Test("a token revoked with /revoke is refused as revoked; no reuse is recorded", arguments: StoreBackend.available)
    func revoked(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let refreshToken = try #require(tokens.refreshToken)
            let revoke = try await browser.postForm("/revoke", ["token": refreshToken, "client_id": Fixtures.nativeApp])
            #expect(revoke.status == 200)
            for _ in 0..<3 {
                let text = try Self.refused(try await browser.refresh(refreshToken))
                #expect(text.contains("revoked (RFC 7009)"), "\(text)")
                #expect(!text.contains("already used"), "\(text)")
            }
            let records = try await Self.audit(server)
            #expect(!records.contains { $0.event == "refresh.reuse_detected" })
            #expect(records.filter { $0.event == "refresh.refused" }.map(\.reason) == ["revoked", "revoked", "revoked"])
        }
    }

    @Test("after a replayed code its tokens are refused as 'code presented twice', and the replay is audited", arguments: StoreBackend.available)
    func codeReplayed(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let code = try await flow.signIn(attempt)
            let tokens = try await flow.exchange(code, attempt: attempt).json(TokenResponse.self)
            #expect(try await flow.exchange(code, attempt: attempt).status == 400)
            let text = try Self.refused(try await flow.browser.refresh(try #require(tokens.refreshToken)))
            #expect(text.contains("authorization code it came from was presented twice"), "\(text)")
            let records = try await Self.audit(server)
            let replay = try #require(records.first { $0.event == "code.replayed" })
            #expect(replay.clientID == Fixtures.nativeApp)
            #expect(replay.detail["family_revoked"] == "true")
            #expect(replay.userID != nil)
            #expect(!records.contains { $0.event == "refresh.reuse_detected" })
            #expect(records.contains { $0.event == "refresh.refused" && $0.reason == "code_replayed" })
        }
    }

    @Test("after a password change another session's token is refused as 'password changed'", arguments: StoreBackend.available)
    func credentialsChanged(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let (caller, _) = try await OAuthFlow(browser: server.client()).tokens()
            let (other, _) = try await OAuthFlow(browser: server.client()).tokens()
            let changed = try await AccountAPI(server).post(
                "/api/password", ["current_password": Fixtures.password, "new_password": "a fine new passphrase"],
                token: caller.accessToken)
            #expect(changed.status == 200, "\(changed.text)")
            let text = try Self.refused(try await server.client().refresh(try #require(other.refreshToken)))
            #expect(text.contains("password was changed or reset"), "\(text)")
            let records = try await Self.audit(server)
            #expect(!records.contains { $0.event == "refresh.reuse_detected" })
            #expect(records.contains { $0.event == "refresh.refused" && $0.reason == "credentials_changed" })
        }
    }

    @Test("a rotated token presented again is reuse, recorded once; the rightful current token then hears why")
    func realReuse() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let old = try #require(tokens.refreshToken)
            let current = try #require(try await browser.refresh(old).json(TokenResponse.self).refreshToken)
            let replay = try Self.refused(try await browser.refresh(old))
            #expect(replay.contains("already used"), "\(replay)")
            let rightful = try Self.refused(try await browser.refresh(current))
            #expect(rightful.contains("used twice"), "\(rightful)")
            #expect(!rightful.contains("already used"), "\(rightful)")
            let records = try await Self.audit(server)
            #expect(records.filter { $0.event == "refresh.reuse_detected" }.count == 1)
            #expect(records.contains { $0.event == "refresh.refused" && $0.reason == "reused" })
        }
    }

    @Test("every revocation reason has its own answer, none of them 'already used'")
    func everyReasonSaysWhy() {
        var texts = Set<String>()
        for reason in RefreshFamilyRevocationReason.allCases {
            let failure = SpentRefreshToken.failure(for: reason)
            let text = failure.description ?? ""
            #expect(!text.contains("already used"), "\(reason)")
            #expect(text.contains("sign"), "\(reason): says what to do")
            texts.insert(text)
        }
        #expect(texts.count == RefreshFamilyRevocationReason.allCases.count)
    }
}
