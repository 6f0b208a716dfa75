import Foundation
import Hummingbird
import SesameProtocol

/// `GET|POST /admin/bootstrap` (issue #47, ``AdminBootstrap``): while no one holds an operator
/// role, a user signed in to the console (a second factor, as always) types the one-time code
/// `sesame serve` printed and becomes the first administrator. The console's sign-in lets a user
/// without a role through to this page only; every other page still asks for a role.
struct ConsoleBootstrapPage: Sendable {
    static let path = "/admin/bootstrap"
    let page: ConsolePage
    let bootstrap: AdminBootstrap

    func show(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await handle(request, context: context) { frame, _ in
            render(frame, error: nil, status: .ok)
        }
    }

    func redeem(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await handle(request, context: context) { frame, user in
            let form: [String: String]
            switch try await page.pages.form(of: request, context: context) {
            case .form(let fields): form = fields
            case .refused(let response): return response
            }
            do {
                _ = try await bootstrap.redeem(form["code"] ?? "", userID: user.id, origin: RequestOrigin(context))
            } catch let failure as ProviderFailure {
                return render(frame, error: failure.description, status: .badRequest)
            }
            return ConsolePage.seeOther("/admin")
        }
    }

    private func handle(
        _ request: Request, context: SesameRequestContext,
        _ body: (ConsoleRenderer.Frame, UserRecord) async throws -> Response
    ) async throws -> Response {
        let text = ConsoleText(locales: LocalePreference.from(request: request, uiLocales: nil))
        let csrf = page.pages.csrf.token(for: request)
        let frame = ConsoleRenderer.Frame(text: text, csrfToken: csrf.value)
        guard try await page.session.provider.store.adminRoles().isEmpty else {
            return page.renderer.message(
                title: text.string("bootstrap.title"), message: text.string("bootstrap.done"),
                link: ("/admin", text.string("nav.home")), frame: frame, status: .gone)
        }
        let user: UserRecord
        do {
            guard let token = page.session.token(in: request), token.utf8.count <= 8192 else {
                return page.signIn(returnTo: Self.path, fresh: false)
            }
            user = try await page.session.authentication.candidate(sessionToken: token, context: context)
        } catch is any APIErrorRendering {
            return page.signIn(returnTo: Self.path, fresh: false)
        }
        return page.pages.settingCookie(csrf, on: try await body(frame, user))
    }

    private func render(_ frame: ConsoleRenderer.Frame, error: String?, status: HTTPResponse.Status) -> Response {
        var frame = frame
        frame.error = error
        let t = frame.text
        return page.renderer.page(
            "bootstrap", title: t.string("bootstrap.title"),
            ["intro": t.string("bootstrap.intro"), "code_label": t.string("bootstrap.code"), "submit": t.string("bootstrap.submit")],
            frame: frame, status: status)
    }
}
