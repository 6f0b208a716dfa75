import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// The users part of the admin API over HTTP (issue #47): who may do what (each role's
/// refusals, the scope, the second factor), disabling a user ending their sessions at once
/// (also through a second process on the same database), unlocking, ending one session, the
/// search's pages, and the audit trail of every change.
@Suite("Admin API: users")
struct AdminAPITests {
    @Test("each refusal says what is missing: no token, no scope, no second factor, no role, a role that does not allow it")
    func refusals() async throws {
        try await withTestServer { server in
            let target = try await server.addMFATestUser("target")
            let anonymous = try await server.client().get("/admin/api/users")
            #expect(anonymous.status == 401)

            let noScope = try await AdminOperator.signIn(server, username: "noscope", role: .admin, scope: "openid")
            let scopeAnswer = try await noScope.get("/admin/api/users")
            #expect(scopeAnswer.status == 403 && scopeAnswer.header("WWW-Authenticate")?.contains("sesame:admin") == true)

            let passwordOnly = try await AdminOperator.signIn(server, username: "pwdonly", role: .admin, secondFactor: false)
            let factorAnswer = try await passwordOnly.get("/admin/api/users")
            #expect(factorAnswer.status == 401)
            #expect(factorAnswer.header("WWW-Authenticate")?.contains("insufficient_user_authentication") == true)

            let nobody = try await AdminOperator.signIn(server, username: "nobody", role: nil)
            let roleAnswer = try await nobody.get("/admin/api/users")
            #expect(roleAnswer.status == 403 && (try? roleAnswer.json(APIError.self))?.code == .adminRoleRequired)

            let auditor = try await AdminOperator.signIn(server, username: "auditor", role: .auditor)
            #expect(try await auditor.get("/admin/api/users/\(target.id)").status == 200, "an auditor reads")
            let refused = try await auditor.post("/admin/api/users/\(target.id)/disable")
            #expect(refused.status == 403)
            let refusal = try refused.json(APIError.self)
            #expect(refusal.code == .adminRoleRequired && refusal.errorDescription?.contains("admin or helpdesk") == true)
            #expect(try await server.store.user(id: target.id)?.isDisabled == false, "nothing changed")

            let helpdesk = try await AdminOperator.signIn(server, username: "helpdesk", role: .helpdesk)
            let grant = try await helpdesk.post("/admin/api/users/\(target.id)/role", json: #"{"role":"admin"}"#)
            #expect(grant.status == 403, "a help desk grants no roles")
            #expect(try await server.store.adminRole(userID: target.id) == nil)

            await server.running.audit.flush()
            let refusals = try await server.store.auditRecords(AuditQuery(events: [AuditEvent.adminRefused.rawValue]))
            #expect(Set(refusals.compactMap(\.reason)) == ["missing_scope", "second_factor_required", "no_role", "role_not_allowed"])
        }
    }

    @Test(
        "disabling ends the user's sessions at once, in both processes; sign-in is refused with account_disabled until enabled",
        arguments: StoreBackend.available)
    func disable(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let sibling = try await server.sibling()
            defer { Task { try? await sibling.stop() } }
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let victim = try await server.store.user(login: Fixtures.username)!
            let (tokens, _) = try await OAuthFlow(browser: server.client()).tokens()
            let refreshToken = try #require(tokens.refreshToken)

            let answer = try await admin.post("/admin/api/users/\(victim.id)/disable")
            #expect(answer.status == 200, "\(answer.text)")
            let change = try answer.json(AdminUserChange.self)
            #expect(change.user.disabledAt != nil && change.sessionsEnded == 1)

            // The other process refuses the refresh token at once (no cache to wait for).
            let refreshed = try await sibling.portClient().refresh(refreshToken)
            #expect(refreshed.status == 400)
            #expect(try refreshed.json(APIError.self).errorDescription?.contains("administrator") == true)
            // The access token no longer reaches the account APIs or /userinfo.
            let userinfo = try await server.client().get("/userinfo", headers: ["Authorization": "Bearer \(tokens.accessToken)"])
            #expect(userinfo.status == 401)

            // A right password gets the reason, in the form and from /authorize-challenge.
            let browser = OAuthFlow(browser: server.client())
            let page = try await browser.authorize(.init())
            let login = try await browser.submitLogin(page: page)
            #expect(login.status == 403 && login.text.contains("disabled"))
            let native = try await ChallengeFlow(server).start()
            #expect(try ChallengeFlow.error(native).code == .accountDisabled)
            let wrong = try await ChallengeFlow(server).start(password: "not the password at all")
            #expect(try ChallengeFlow.error(wrong).code == .invalidCredentials, "a wrong password learns nothing")

            #expect(try await admin.post("/admin/api/users/\(admin.user.id)/disable").status == 400, "not oneself")
            #expect(try await admin.post("/admin/api/users/\(victim.id)/enable").status == 200)
            _ = try await OAuthFlow(browser: server.client()).tokens()

            await server.running.audit.flush()
            let disabled = try await server.store.auditRecords(AuditQuery(userID: victim.id, events: ["admin."]))
            #expect(disabled.map(\.event) == [AuditEvent.userDisabled.rawValue, AuditEvent.userEnabled.rawValue])
            #expect(disabled.allSatisfy { $0.detail["actor"] == admin.user.id })
        }
    }

    @Test("a help desk clears a lockout and ends one session; the detail lists the sessions and no secret")
    func helpdesk() async throws {
        try await withTestServer { server in
            let helpdesk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let user = try await server.store.user(login: Fixtures.username)!
            let (first, _) = try await OAuthFlow(browser: server.client()).tokens()
            let (second, _) = try await OAuthFlow(browser: server.client()).tokens()

            let detail = try await helpdesk.get("/admin/api/users/\(user.id)")
            #expect(detail.status == 200)
            #expect(!detail.text.contains("$scrypt$") && !detail.text.contains(Fixtures.password))
            let viewed = try detail.json(AdminUserDetail.self)
            let sessions = viewed.sessions
            #expect(sessions.count == 2 && viewed.hasPassword)

            let ended = try await helpdesk.delete("/admin/api/users/\(user.id)/sessions/\(sessions[0].id)")
            let endedChange = try ended.json(AdminUserChange.self)
            #expect(ended.status == 200 && endedChange.sessionsEnded == 1)
            let statuses = [
                try await server.client().refresh(first.refreshToken!).status,
                try await server.client().refresh(second.refreshToken!).status,
            ]
            #expect(statuses.sorted() == [200, 400], "exactly the one session ended")
            #expect(try await helpdesk.delete("/admin/api/users/\(user.id)/sessions/nope").status == 404)

            for _ in 0..<5 { _ = try await ChallengeFlow(server).start(password: "wrong password here") }
            #expect(try ChallengeFlow.error(try await ChallengeFlow(server).start()).code == .tooManyAttempts)
            #expect(try await helpdesk.post("/admin/api/users/\(user.id)/unlock").status == 200)
            #expect(try await ChallengeFlow(server).start().status == 200, "the right password works again")
        }
    }

    @Test("search pages through the users with an opaque cursor; bad input is a 400 that says what to fix")
    func search() async throws {
        try await withTestServer { server in
            let auditor = try await AdminOperator.signIn(server, username: "reader", role: .auditor)
            for index in 0..<7 {
                try await server.store.createUser(UserRecord(username: "zed\(index)", email: "zed\(index)@example.net"))
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                var query = ["q": "ZED", "limit": "3"]
                if let cursor { query["cursor"] = cursor }
                let page = try (try await auditor.get("/admin/api/users", query: query)).json(AdminUserPage.self)
                seen += page.users.map(\.username)
                cursor = page.nextCursor
            } while cursor != nil && seen.count < 30
            #expect(Set(seen) == Set((0..<7).map { "zed\($0)" }))
            for bad in [["limit": "0"], ["limit": "1e30"], ["cursor": "not-a-cursor"], ["q": String(repeating: "q", count: 321)]] {
                let answer = try await auditor.get("/admin/api/users", query: bad)
                #expect(answer.status == 400, "\(bad.keys): \(answer.status)")
            }
            #expect(try await auditor.get("/admin/api/users/nobody").status == 404)
        }
    }
}
