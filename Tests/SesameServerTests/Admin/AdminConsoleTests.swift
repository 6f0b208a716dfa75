import Foundation
import SesameProtocol
import SesameTesting
import Testing
@testable import SesameServer

/// The admin console's pages over HTTP (issue #47), attacked as an outsider would: no session
/// goes to the sign-in (never an open redirect), a forged or foreign callback is refused, every
/// form needs its CSRF token, each role's refusals, and no page shows a secret. The whole
/// journey in a real browser is `AdminConsoleBrowserTests`.
@Suite("Admin console: pages")
struct AdminConsoleTests {
    /// A browser holding an operator's console session: the session cookie is the operator's
    /// token (``ConsoleSession`` checks it as any presented token), plus the CSRF pre-session.
    struct Console {
        let http: HTTPTestClient
        let token: String
        var csrfCookie = ""
        var csrfToken = ""

        var cookie: [String: String] {
            ["Cookie": "sesame_admin=\(token)" + (csrfCookie.isEmpty ? "" : "; sesame_csrf=\(csrfCookie)")]
        }

        /// GETs a page, keeping the CSRF cookie and the token of its forms.
        mutating func get(_ path: String) async throws -> TestResponse {
            let page = try await http.get(path, headers: cookie)
            for line in page.setCookies where line.hasPrefix("sesame_csrf=") {
                csrfCookie = String(line.dropFirst("sesame_csrf=".count).prefix { $0 != ";" })
            }
            if let range = page.text.range(of: #"name="csrf_token" value="([^"]+)""#, options: .regularExpression) {
                csrfToken = String(page.text[range].dropFirst(#"name="csrf_token" value=""#.count).dropLast())
            }
            return page
        }

        func post(_ path: String, _ form: [String: String] = [:], csrf: Bool = true) async throws -> TestResponse {
            try await http.postForm(path, csrf ? form.merging(["csrf_token": csrfToken]) { $1 } : form, headers: cookie)
        }
    }

    static func console(_ server: TestServer, _ username: String, role: AdminRole) async throws -> Console {
        let admin = try await AdminOperator.signIn(server, username: username, role: role)
        return Console(http: server.client(), token: admin.accessToken)
    }

    @Test("without a session every page goes to the sign-in and back; the return path never leaves the console")
    func signInRedirects() async throws {
        try await withTestServer { server in
            let http = server.client()
            let page = try await http.get("/admin/users?q=a")
            #expect(page.status == 303 && page.location?.hasPrefix("/admin/login?") == true)
            #expect(page.locationQuery["return"] == "/admin/users?q=a")
            let login = try await http.get("/admin/login", query: ["return": "/admin/users?q=a"])
            #expect(login.status == 303)
            let authorize = try #require(login.location.flatMap(URLComponents.init(string:)))
            #expect(authorize.path == "/authorize")
            let items = Dictionary(uniqueKeysWithValues: (authorize.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(items["client_id"] == "sesame-admin-console" && items["code_challenge_method"] == "S256")
            #expect(items["acr_values"] == AuthenticationContextClass.multiFactor && items["scope"] == "openid sesame:admin")
            #expect(items["redirect_uri"] == server.issuer + "/admin/callback")
            #expect(login.setCookies.contains { $0.hasPrefix("sesame_admin_login=") && $0.contains("HttpOnly") && $0.contains("Path=/admin") })
            // The console's registration is there, as the server keeps it.
            let client = try #require(try await server.store.client(id: "sesame-admin-console"))
            #expect(client.redirectURIs == [server.issuer + "/admin/callback"] && client.mfaPolicy == .always)

            for hostile in [
                "//evil.example/admin", "https://evil.example/admin", "/admin/../x", "/adminx", "/admin/api/users", "/\\evil",
                "/admin/%2F%2Fevil", "/admin/\u{0}", String(repeating: "/admin", count: 100),
            ] {
                #expect(ConsoleSession.safeReturn(hostile) == nil, "\(hostile)")
            }
            #expect(ConsoleSession.safeReturn("/admin/users/a?b=c") == "/admin/users/a?b=c")
        }
    }

    @Test("a callback without this browser's login cookie, with a forged state or an unknown code is refused")
    func forgedCallbacks() async throws {
        try await withTestServer { server in
            let http = server.client()
            let noCookie = try await http.get("/admin/callback", query: ["code": "x", "state": "y"])
            #expect(noCookie.status == 400 && noCookie.text.contains("did not start the sign-in"))
            let login = try await http.get("/admin/login")
            let cookie = try #require(login.setCookies.first { $0.hasPrefix("sesame_admin_login=") }?.split(separator: ";").first)
            let forged = try await http.get("/admin/callback", query: ["code": "x", "state": "forged"], headers: ["Cookie": String(cookie)])
            #expect(forged.status == 400 && forged.text.contains("state does not belong"))
            let state = try #require(login.locationQuery["state"])
            let unknown = try await http.get("/admin/callback", query: ["code": "unknown", "state": state], headers: ["Cookie": String(cookie)])
            #expect(unknown.status == 400 && !unknown.setCookies.contains { $0.hasPrefix("sesame_admin=") && !$0.hasPrefix("sesame_admin=;") })
        }
    }

    @Test("every change needs the form's CSRF token; a helpdesk operator manages users but not clients or keys; an auditor changes nothing")
    func csrfAndRoles() async throws {
        try await withTestServer { server in
            let target = try await server.addMFATestUser("customer")
            var helpdesk = try await Self.console(server, "helen", role: .helpdesk)
            let detail = try await helpdesk.get("/admin/users/\(target.id)")
            #expect(detail.status == 200 && detail.text.contains("customer@example.com"))
            #expect(detail.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            #expect(!detail.text.contains("<script"), "no script on any console page")
            #expect(!detail.text.contains("scrypt") && !detail.text.contains(helpdesk.token), "no secret in a page")

            let forged = try await helpdesk.post("/admin/users/\(target.id)/disable", csrf: false)
            #expect(forged.status == 403)
            #expect(try await server.store.user(id: target.id)?.isDisabled == false, "a forged form changes nothing")
            let disabled = try await helpdesk.post("/admin/users/\(target.id)/disable")
            #expect(disabled.status == 303 && disabled.location == "/admin/users/\(target.id)?done=disable")
            #expect(try await server.store.user(id: target.id)?.isDisabled == true)

            let client = try await helpdesk.get("/admin/clients/\(AdminOperator.clientID)")
            #expect(client.status == 403, "a helpdesk operator does not read clients")
            let edit = try await helpdesk.post("/admin/clients/\(AdminOperator.clientID)", ["redirect_uris": "https://evil.example/cb"])
            #expect(edit.status == 403 && edit.text.contains("admin"))
            #expect(try await server.store.client(id: AdminOperator.clientID)?.redirectURIs == ["com.example.admin:/cb"])
            #expect(try await helpdesk.post("/admin/keys/rotate").status == 403)

            var auditor = try await Self.console(server, "audrey", role: .auditor)
            #expect(try await auditor.get("/admin/audit?event=admin.").status == 200)
            let refused = try await auditor.post("/admin/users/\(target.id)/enable")
            #expect(refused.status == 403)
            #expect(try await server.store.user(id: target.id)?.isDisabled == true, "an auditor changes nothing")
            let page = try await auditor.get("/admin/users/\(target.id)")
            #expect(!page.text.contains("/enable\""), "an auditor is offered no change")
        }
    }

    @Test("an administrator's client edit is validated as a new client is and keeps what was typed; the console's own client cannot be edited")
    func clientEdits() async throws {
        try await withTestServer { server in
            var admin = try await Self.console(server, "ada", role: .admin)
            _ = try await admin.get("/admin/clients/\(AdminOperator.clientID)")
            let bad = try await admin.post(
                "/admin/clients/\(AdminOperator.clientID)", ["name": "Admin tool", "redirect_uris": "http://example.com/cb#frag", "mfa_policy": "when_enrolled"])
            #expect(bad.status == 400 && bad.text.contains("http://example.com/cb#frag"), "\(bad.text.prefix(300))")
            let good = try await admin.post(
                "/admin/clients/\(AdminOperator.clientID)",
                ["name": "Admin tool", "redirect_uris": "com.example.admin:/cb\r\ncom.example.admin:/cb2", "mfa_policy": "always"])
            #expect(good.status == 303)
            // The next authorization request sees the new redirect URI.
            let authorize = try await server.client().get(
                "/authorize",
                query: [
                    "client_id": AdminOperator.clientID, "response_type": "code", "redirect_uri": "com.example.admin:/cb2",
                    "scope": "openid", "code_challenge": PKCE().challenge, "code_challenge_method": "S256",
                ])
            #expect(authorize.status == 200 && authorize.text.contains("name=\"password\""), "\(authorize.status)")
            let record = try await server.store.client(id: AdminOperator.clientID)
            #expect(record?.redirectURIs == ["com.example.admin:/cb", "com.example.admin:/cb2"] && record?.mfaPolicy == .always)

            let builtIn = try await admin.get("/admin/clients/sesame-admin-console")
            #expect(builtIn.status == 200 && !builtIn.text.contains("<textarea"))
            let edit = try await admin.post("/admin/clients/sesame-admin-console", ["redirect_uris": "https://evil.example/cb"])
            #expect(edit.status == 400)
            #expect(try await server.store.client(id: "sesame-admin-console")?.redirectURIs == [server.issuer + "/admin/callback"])
            let overview = try await admin.get("/admin?window=month")
            #expect(overview.status == 200 && overview.text.components(separatedBy: "<svg").count == 5)
        }
    }
}
