import Foundation
import Hummingbird
import Mustache
import SesameProtocol

/// Renders the admin console's pages (``ConsoleTemplates``) with the strict CSP of the hosted
/// pages and no script at all, `no-store` (an operator's view of users is not cached).
struct ConsoleRenderer: Sendable {
    let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for template in ConsoleTemplates.all { try library.register(template.source, named: template.name) }
        self.library = library
    }

    /// What every page around its content shows.
    struct Frame {
        var text: ConsoleText
        /// The section in the navigation (`home`, `users`, `clients`, `providers`, `keys`, `audit`), `nil`
        /// for pages outside a session.
        var section: String?
        /// The operator's username and role while signed in.
        var operatorName: String?
        var role: String?
        /// The CSRF token of the page's forms.
        var csrfToken: String
        var notice: String?
        var error: String?
    }

    static let sections = [
        "home": "/admin", "users": "/admin/users", "clients": "/admin/clients", "providers": "/admin/providers",
        "keys": "/admin/keys", "audit": "/admin/audit",
    ]
    static let sectionOrder = ["home", "users", "clients", "providers", "keys", "audit"]

    func page(
        _ template: String, title: String, _ content: [String: Any], frame: Frame, status: HTTPResponse.Status = .ok
    ) -> Response {
        let t = frame.text
        var context = content
        context["lang"] = t.locale
        context["title"] = title
        context["console_name"] = t.string("console.name")
        context["skip_label"] = title
        context["csrf_token"] = frame.csrfToken
        if let name = frame.operatorName, let role = frame.role {
            context["signed_in"] = true
            context["nav_label"] = t.string("nav.label")
            context["operator"] = t.string("operator", ["user": name, "role": role])
            context["sign_out"] = t.string("nav.sign_out")
            context["nav"] = Self.sectionOrder.map { section in
                ["href": Self.sections[section] ?? "/admin", "label": t.string("nav." + section), "current": section == frame.section]
            }
        }
        if let notice = frame.notice { context["notice"] = notice }
        if let error = frame.error { context["error"] = error }
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        SecurityHeaders.apply(to: &headers, policy: .strict)
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: library.render(context, withTemplate: template) ?? "")))
    }

    /// A page with a title, a message and an optional link.
    func message(
        title: String, message: String, link: (href: String, label: String)? = nil, frame: Frame,
        status: HTTPResponse.Status
    ) -> Response {
        var content: [String: Any] = ["message": message]
        if let link { content["link"] = ["href": link.href, "label": link.label] }
        return page("message", title: title, content, frame: frame, status: status)
    }
}

extension Date {
    /// How the console writes an instant: UTC, to the second (`2026-11-29 15:04:05`).
    var consoleText: String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        return formatter.string(from: self)
    }
}
