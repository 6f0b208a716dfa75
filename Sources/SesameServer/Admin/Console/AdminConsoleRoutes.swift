import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The admin console under `/admin` (issue #47): server-rendered pages over the core's operator
/// services, signed in through the hosted login (``ConsoleSession``), every change a POST with a
/// CSRF token, no script. `docs/admin.md` shows each page.
struct AdminConsoleRoutes: FeatureRoutes {
    let session: ConsoleSession
    let page: ConsolePage
    let users: ConsoleUserPages
    let clients: ConsoleClientPages
    let audit: ConsoleAuditPages
    let bootstrap: ConsoleBootstrapPage
    let providers: ConsoleProviderPages

    func register(on router: Router<SesameRequestContext>) {
        router.get("/admin/login", use: login)
        router.get("/admin/callback", use: callback)
        router.post("/admin/logout", use: logout)
        router.get("/admin/signed-out", use: signedOut)
        router.get("/admin", use: audit.home)
        router.get("/admin/users", use: users.search)
        router.get("/admin/users/{user_id}", use: users.detail)
        router.post("/admin/users/{user_id}/{action}", use: users.act)
        router.post("/admin/users/{user_id}/sessions/{session_id}/end", use: users.endSession)
        router.get("/admin/clients", use: clients.list)
        router.get("/admin/clients/{client_id}", use: clients.detail)
        router.post("/admin/clients/{client_id}", use: clients.update)
        router.get("/admin/providers", use: providers.list)
        router.get("/admin/keys", use: clients.keyList)
        router.post("/admin/keys/rotate", use: clients.rotate)
        router.post("/admin/keys/{kid}/retire", use: clients.retire)
        router.get(RouterPath(ConsoleBootstrapPage.path), use: bootstrap.show)
        router.post(RouterPath(ConsoleBootstrapPage.path), use: bootstrap.redeem)
        router.get("/admin/audit", use: audit.audit)
        router.get("/admin/audit/export", use: audit.export)
    }

    /// `GET /admin/login?return=…&fresh=1`: on to the hosted login.
    func login(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        return session.start(returnTo: query["return"].map(String.init), fresh: query["fresh"] == "1")
    }

    /// `GET /admin/callback`: the console's redirect URI.
    func callback(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let text = ConsoleText(locales: LocalePreference.from(request: request, uiLocales: nil))
        let frame = ConsoleRenderer.Frame(text: text, csrfToken: "")
        switch try await session.finish(request, context: context) {
        case .refused(let reason):
            context.annotations.record(outcome: "admin_console_sign_in_refused")
            var response = page.renderer.message(
                title: text.string("error.title"), message: text.string("error.sign_in_failed", ["reason": reason]),
                link: ("/admin/login", text.string("error.start_again")), frame: frame, status: .badRequest)
            response.headers.append(HTTPField(name: .setCookie, value: session.clearLogin()))
            return response
        case .signedIn(let token, let lifetime, let returnTo):
            // A user without a role is told so here, not after a redirect loop.
            do {
                _ = try await session.authentication.authenticate(sessionToken: token, context: context)
            } catch let error as any APIErrorRendering where error.failure.code == .adminRoleRequired {
                // No role yet: only the first administrator's bootstrap page lets them in.
                if returnTo == ConsoleBootstrapPage.path, try await session.provider.store.adminRoles().isEmpty {
                    return signedIn(token, lifetime: lifetime, returnTo: returnTo)
                }
                var name = ""
                if let claims = try? await session.provider.accessTokens.activeClaims(token) {
                    name = (try? await session.provider.store.user(id: claims.sub))??.username ?? ""
                }
                var response = page.renderer.message(
                    title: text.string("error.title"), message: text.string("error.no_role", ["user": name]), frame: frame,
                    status: .forbidden)
                response.headers.append(HTTPField(name: .setCookie, value: session.clearLogin()))
                return response
            }
            return signedIn(token, lifetime: lifetime, returnTo: returnTo)
        }
    }

    /// On to `returnTo` with the session cookie set and the login cookie cleared.
    private func signedIn(_ token: String, lifetime: Int, returnTo: String) -> Response {
        var response = Response(status: .seeOther, headers: [.location: returnTo, .cacheControl: "no-store"])
        response.headers.append(HTTPField(name: .setCookie, value: session.setSession(token, lifetime: lifetime)))
        response.headers.append(HTTPField(name: .setCookie, value: session.clearLogin()))
        return response
    }

    /// `POST /admin/logout` (CSRF-checked): the session's token is revoked, the browser's sign-in
    /// session ended, both cookies cleared.
    func logout(_ request: Request, context: SesameRequestContext) async throws -> Response {
        switch try await page.pages.form(of: request, context: context) {
        case .refused(let response): return response
        case .form: break
        }
        await session.revoke(request)
        // The hosted login's browser session ends too, as Keycloak's console sign-out does:
        // otherwise the next page would sign the operator in again without a password.
        let cookies = page.pages.cookies
        try await BrowserSessionResolver(store: session.provider.store, cookies: cookies, now: session.provider.now).end(request)
        var response = Response(status: .seeOther, headers: [.location: "/admin/signed-out", .cacheControl: "no-store"])
        response.headers.append(HTTPField(name: .setCookie, value: session.clearSession()))
        response.headers.append(HTTPField(name: .setCookie, value: cookies.clearSession()))
        return response
    }

    func signedOut(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let text = ConsoleText(locales: LocalePreference.from(request: request, uiLocales: nil))
        return page.renderer.message(
            title: text.string("signed_out.title"), message: text.string("signed_out.body"),
            link: ("/admin/login", text.string("signed_out.again")), frame: ConsoleRenderer.Frame(text: text, csrfToken: ""),
            status: .ok)
    }
}
