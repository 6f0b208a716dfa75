import Foundation
import Hummingbird
import SesameProtocol

/// What every console page does around its content (issue #47): finds the operator of the
/// session (no session, or a dead one: to the sign-in and back to this page), gives the page its
/// ``ConsoleRenderer/Frame`` and CSRF token, checks a POST's CSRF token, and turns the core's
/// refusals into pages: a role that may not (403, naming the roles that may), a change that needs
/// a fresh sign-in (a link through `max_age=0` back here), a missing thing (404).
struct ConsolePage: Sendable {
    let session: ConsoleSession
    let renderer: ConsoleRenderer
    let pages: HostedPages

    /// What a page handler gets.
    struct Visit {
        let actor: AdminActor
        var frame: ConsoleRenderer.Frame
        /// The POST's form fields (empty for a GET).
        let form: [String: String]
        let origin: RequestOrigin
    }

    /// Runs `body` for the request's operator; `section` marks the navigation.
    func handle(
        _ request: Request, context: SesameRequestContext, section: String,
        _ body: (Visit) async throws -> Response
    ) async throws -> Response {
        let text = ConsoleText(locales: LocalePreference.from(request: request, uiLocales: nil))
        let csrf = pages.csrf.token(for: request)
        var frame = ConsoleRenderer.Frame(text: text, section: section, csrfToken: csrf.value)
        let actor: AdminActor
        do {
            actor = try await session.actor(request, context: context)
        } catch let error as any APIErrorRendering {
            switch error.failure.code {
            case .adminRoleRequired:
                return refusal(text.string("error.role"), error.failure.description, frame: frame, status: .forbidden)
            default:
                // No session, an expired or revoked one, no second factor: sign in (again).
                return signIn(returnTo: request.method == .get ? request.uri.description : nil, fresh: false)
            }
        }
        var form: [String: String] = [:]
        if request.method == .post {
            switch try await pages.form(of: request, context: context) {
            case .form(let fields): form = fields
            case .refused(let page): return page
            }
        }
        let user = try await session.provider.store.user(id: actor.userID)
        frame.operatorName = user?.username ?? actor.userID
        frame.role = actor.role.rawValue
        do {
            let response = try await session.authentication.perform(actor, context: context) { actor in
                try await body(Visit(actor: actor, frame: frame, form: form, origin: RequestOrigin(context)))
            }
            return pages.settingCookie(csrf, on: response)
        } catch let error as any APIErrorRendering {
            let failure = error.failure
            switch failure.code {
            case .adminRoleRequired:
                return refusal(text.string("error.role"), failure.description, frame: frame, status: .forbidden)
            case .insufficientAuthorization:
                let back = Self.referringPage(request) ?? "/admin"
                return renderer.message(
                    title: text.string("error.title"), message: text.string("error.fresh_sign_in"),
                    link: ("/admin/login?fresh=1&return=" + Self.queryEncoded(back), text.string("error.sign_in_again")),
                    frame: frame, status: .unauthorized)
            case .notFound:
                return refusal(text.string("error.not_found"), nil, frame: frame, status: .notFound)
            default:
                return renderer.message(
                    title: text.string("error.title"), message: failure.description ?? failure.code.error,
                    link: (Self.referringPage(request) ?? "/admin", text.string("error.back")), frame: frame, status: .badRequest)
            }
        }
    }

    /// A 303 to the sign-in, coming back to `returnTo`.
    func signIn(returnTo: String?, fresh: Bool) -> Response {
        var location = "/admin/login"
        var query: [String] = []
        if let returnTo = ConsoleSession.safeReturn(returnTo) { query.append("return=" + Self.queryEncoded(returnTo)) }
        if fresh { query.append("fresh=1") }
        if !query.isEmpty { location += "?" + query.joined(separator: "&") }
        return Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// A 303 back to a page after a POST (Post/Redirect/Get), with what happened as `done`.
    static func seeOther(_ path: String, done: String? = nil) -> Response {
        let location = done.map { path + (path.contains("?") ? "&" : "?") + "done=" + queryEncoded($0) } ?? path
        return Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    private func refusal(_ message: String, _ detail: String?, frame: ConsoleRenderer.Frame, status: HTTPResponse.Status) -> Response {
        var frame = frame
        frame.error = detail
        return renderer.message(
            title: frame.text.string("error.title"), message: message, link: ("/admin", frame.text.string("nav.home")),
            frame: frame, status: status)
    }

    /// The console page a POST came from (its path without the action), for "back" links.
    private static func referringPage(_ request: Request) -> String? {
        let path = request.uri.path
        if request.method == .get { return ConsoleSession.safeReturn(request.uri.description) }
        // /admin/users/{id}/disable → /admin/users/{id}; /admin/keys/rotate → /admin/keys.
        var parts = path.split(separator: "/").map(String.init)
        if parts.count > 2 { parts.removeLast() }
        if parts.count > 3, parts[parts.count - 2] == "sessions" { parts.removeLast(2) }
        if parts.count > 2, parts[1] == "keys" { parts = ["admin", "keys"] }
        return ConsoleSession.safeReturn("/" + parts.joined(separator: "/"))
    }

    static func queryEncoded(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
