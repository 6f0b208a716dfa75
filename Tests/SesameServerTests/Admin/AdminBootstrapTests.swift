import Foundation
import SesameProtocol
import SesameTesting
import Testing
@testable import SesameServer

/// The first administrator (issue #47, ``AdminBootstrap``): the one-time code `sesame serve`
/// prints while no one holds a role, redeemed through the API or the console's form, attacked:
/// wrong codes count down, 20 answers at once make one administrator, a used or superseded code
/// fails, a sign-in without a second factor or the scope is refused, and once an administrator
/// exists no code is issued or accepted.
@Suite("Admin: the first administrator's bootstrap")
struct AdminBootstrapTests {
    @Test("the code makes the first administrator once; wrong answers count down; it is refused once anyone holds a role")
    func api() async throws {
        try await withTestServer { server in
            let alice = try await AdminOperator.signIn(server, username: "ada", role: nil)
            let superseded = try #require(try await server.running.issueAdminBootstrapCode())
            let code = try #require(try await server.running.issueAdminBootstrapCode())
            #expect(code.count == 23 && code.split(separator: "-").count == 4 && code != superseded)
            #expect(try await alice.get("/admin/api/overview").status == 403, "no role yet")

            let noMFA = try await AdminOperator.signIn(server, username: "cyd", role: nil, secondFactor: false)
            #expect(try await noMFA.post("/admin/api/bootstrap", json: #"{"code": "\#(code)"}"#).status == 401)
            let noScope = try await AdminOperator.signIn(server, username: "dov", role: nil, scope: "openid")
            #expect(try await noScope.post("/admin/api/bootstrap", json: #"{"code": "\#(code)"}"#).status == 403)
            for body in ["[]", #"{"code": 1e30}"#, #"{"code": "\#(String(repeating: "A", count: 100_000))"}"#, "not json"] {
                let refused = try await alice.post("/admin/api/bootstrap", json: body)
                #expect(refused.status == 400 || (body.count > 65_536 && refused.status == 413), "\(body.prefix(40)): \(refused.status)")
            }
            let old = try await alice.post("/admin/api/bootstrap", json: #"{"code": "\#(superseded)"}"#)
            #expect(old.status == 400 && old.jsonObject["remaining_attempts"] as? Int == 4, "\(old.text)")

            // 20 answers at once, one right: exactly one administrator.
            let users = try await withThrowingTaskGroup(of: AdminOperator.self) { group in
                for index in 0..<3 { group.addTask { try await AdminOperator.signIn(server, username: "rival\(index)", role: nil) } }
                return try await group.reduce(into: [AdminOperator]()) { $0.append($1) }
            }
            let lowered = code.lowercased().replacingOccurrences(of: "-", with: " ")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    let user = users[index % users.count]
                    group.addTask { try await user.post("/admin/api/bootstrap", json: #"{"code": "\#(lowered)"}"#).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1 && statuses.allSatisfy { $0 == 200 || $0 == 400 }, "\(statuses)")
            let roles = try await server.store.adminRoles()
            #expect(roles.count == 1 && roles.first?.role == .admin)
            let winner = try #require(users.first { $0.user.id == roles.first?.userID })
            #expect(try await winner.get("/admin/api/overview").status == 200)
            #expect(try await alice.post("/admin/api/bootstrap", json: #"{"code": "\#(code)"}"#).status == 400)
            #expect(try await server.running.issueAdminBootstrapCode() == nil, "no code once an administrator exists")
            await server.running.audit.flush()
            let records = try await server.store.auditRecords(AuditQuery(events: [AuditEvent.roleChanged.rawValue], limit: 10))
            #expect(records.count == 1 && records.first?.detail["via"] == "bootstrap" && !records.contains { $0.detail.values.contains(code) })
        }
    }

    @Test("the console's form: a signed-in user without a role reaches only the bootstrap page; CSRF; then the console opens")
    func console() async throws {
        try await withTestServer { server in
            let user = try await AdminOperator.signIn(server, username: "ada", role: nil)
            let code = try #require(try await server.running.issueAdminBootstrapCode())
            var console = AdminConsoleTests.Console(http: server.client(), token: user.accessToken)
            #expect(try await console.get("/admin/users").status == 403, "other pages still need a role")
            let form = try await console.get("/admin/bootstrap")
            #expect(form.status == 200 && form.text.contains(#"name="code""#) && !form.text.contains(code))
            #expect(try await console.post("/admin/bootstrap", ["code": code], csrf: false).status == 403)
            let wrong = try await console.post("/admin/bootstrap", ["code": "AAAAA-AAAAA-AAAAA-AAAAA"])
            #expect(wrong.status == 400 && wrong.text.contains("wrong"))
            let right = try await console.post("/admin/bootstrap", ["code": code])
            #expect(right.status == 303 && right.location == "/admin")
            #expect(try await console.get("/admin/users").status == 200)
            #expect(try await console.get("/admin/bootstrap").status == 410, "done once an administrator exists")
            let anonymous = try await server.client().get("/admin/bootstrap")
            #expect(anonymous.status == 410)
        }
    }
}
