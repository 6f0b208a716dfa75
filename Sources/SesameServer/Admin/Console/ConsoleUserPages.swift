import Foundation
import Hummingbird
import SesameProtocol

/// The console's users (issue #47, over ``UserAdministration`` as the admin API is):
/// - `GET /admin/users?q=&cursor=`: search by username, email, name or subject prefix, a page
///   of 25 with a link to the next (cursor pagination, fast on a million users);
/// - `GET /admin/users/{id}`: the help desk's view (profile, factors, passkeys, PIN devices,
///   devices, linked identities, live sessions; never a secret) and the actions the role allows;
/// - `POST /admin/users/{id}/disable|enable|unlock|end-sessions` and
///   `POST /admin/users/{id}/sessions/{session}/end`, each back to the user's page.
struct ConsoleUserPages: Sendable {
    let page: ConsolePage
    let users: UserAdministration

    func search(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "users") { visit in
            let t = visit.frame.text
            let query = request.uri.queryParameters
            let prefix = String((query["q"].map(String.init) ?? "").prefix(UserSearch.maximumPrefixLength))
            let cursor = query["cursor"].map(String.init).flatMap(UserAdministration.decodeCursor)
            let result = try await users.search(UserSearch(prefix: prefix, cursor: cursor, limit: 25), by: visit.actor)
            let rows: [[String: Any]] = result.users.map { user in
                [
                    "id": ConsolePage.queryEncoded(user.id), "username": user.username, "email": user.email,
                    "name": user.name ?? "", "role": user.role ?? "", "matched": user.matchedBy ?? "",
                    "status": t.string(user.disabledAt == nil ? "users.enabled" : "users.disabled"),
                ]
            }
            var content: [String: Any] = [
                "q": prefix, "rows": rows, "has_rows": !rows.isEmpty, "search_label": t.string("users.search"),
                "search_button": t.string("users.search_button"), "username_label": t.string("users.username"),
                "email_label": t.string("users.email"), "name_label": t.string("users.name"),
                "status_label": t.string("users.status"), "role_label": t.string("users.role"),
                "matched_label": t.string("users.matched"), "none": t.string("users.none"), "next_label": t.string("users.next"),
            ]
            if let next = result.nextCursor {
                content["next"] = "/admin/users?q=\(ConsolePage.queryEncoded(prefix))&cursor=\(ConsolePage.queryEncoded(next))"
            }
            return page.renderer.page("users", title: t.string("users.title"), content, frame: visit.frame)
        }
    }

    func detail(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "users") { visit in
            var frame = visit.frame
            let t = frame.text
            let id = try Self.parameter("user_id", context)
            let detail = try await users.detail(userID: id, by: visit.actor)
            if let done = request.uri.queryParameters["done"].map(String.init),
                ["disable", "enable", "unlock", "end_sessions", "end_session"].contains(done)
            {
                frame.notice = t.string("user.done." + done)
            }
            let user = detail.user
            let none = t.string("user.none")
            var facts: [[String: String]] = [
                ["label": t.string("user.subject"), "value": user.id],
                ["label": t.string("users.username"), "value": user.username],
                [
                    "label": t.string("users.email"),
                    "value": user.email + " (" + t.string(user.emailVerified ? "user.email_verified" : "user.email_unverified") + ")",
                ],
                ["label": t.string("users.name"), "value": user.name ?? ""],
                ["label": t.string("users.status"), "value": t.string(user.disabledAt == nil ? "users.enabled" : "users.disabled")],
                ["label": t.string("user.created"), "value": Self.time(user.createdAt)],
                ["label": t.string("user.last_sign_in"), "value": detail.lastSignInAt.map(Self.time) ?? t.string("user.never")],
            ]
            if let role = user.role { facts.append(["label": t.string("users.role"), "value": role]) }
            let lists: [[String: Any]] = [
                Self.list(t.string("user.factors"), detail.factors.map { "\($0.method.rawValue)\($0.destination.map { " · " + $0 } ?? "")" }),
                Self.list(t.string("user.passkeys"), detail.passkeys.map { "\($0.name) (\($0.keyKind))" }),
                Self.list(
                    t.string("user.pin_devices"),
                    detail.pinRegistrations.map { "\($0.label ?? $0.id) · \($0.clientID) · \(Self.time($0.createdAt))" }),
                Self.list(t.string("user.devices"), detail.devices.map { "\($0.name) · \(Self.time($0.createdAt))" }),
                Self.list(t.string("user.identities"), detail.federatedIdentities.map { "\($0.provider) · \($0.email ?? $0.subject)" }),
            ].map { $0.merging(["none": none]) { old, _ in old } }
            let manage = visit.actor.role.allows(.manageUsers)
            let actions: [[String: Any]] = [
                user.disabledAt == nil
                    ? ["action": "disable", "label": t.string("user.disable"), "danger": true]
                    : ["action": "enable", "label": t.string("user.enable"), "danger": false],
                ["action": "unlock", "label": t.string("user.unlock"), "danger": false],
                ["action": "end-sessions", "label": t.string("user.end_sessions"), "danger": true],
            ]
            let sessions: [[String: Any]] = detail.sessions.map {
                ["id": ConsolePage.queryEncoded($0.id), "client": $0.clientID, "started": Self.time($0.lastUsedAt)]
            }
            let content: [String: Any] = [
                "id": ConsolePage.queryEncoded(user.id), "user_id": ConsolePage.queryEncoded(user.id), "facts": facts,
                "lists": lists, "can_manage": manage, "actions": actions, "actions_label": t.string("user.actions"),
                "sessions": sessions, "has_sessions": !sessions.isEmpty, "sessions_label": t.string("user.sessions"),
                "client_label": t.string("user.session_client"), "started_label": t.string("user.session_started"),
                "end_label": t.string("user.end_session"), "none": none,
            ]
            return page.renderer.page("user", title: t.string("user.title", ["username": user.username]), content, frame: frame)
        }
    }

    /// `POST /admin/users/{user_id}/{action}`.
    func act(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "users") { visit in
            let id = try Self.parameter("user_id", context)
            let action = try Self.parameter("action", context)
            let back = "/admin/users/" + ConsolePage.queryEncoded(id)
            switch action {
            case "disable": _ = try await users.disable(userID: id, by: visit.actor, origin: visit.origin)
            case "enable": _ = try await users.enable(userID: id, by: visit.actor, origin: visit.origin)
            case "unlock": _ = try await users.unlock(userID: id, by: visit.actor, origin: visit.origin)
            case "end-sessions":
                _ = try await users.endSessions(userID: id, sessionID: nil, by: visit.actor, origin: visit.origin)
                return ConsolePage.seeOther(back, done: "end_sessions")
            default: throw ProviderFailure(.notFound, "No such action.")
            }
            return ConsolePage.seeOther(back, done: action)
        }
    }

    /// `POST /admin/users/{user_id}/sessions/{session_id}/end`.
    func endSession(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "users") { visit in
            let id = try Self.parameter("user_id", context)
            _ = try await users.endSessions(
                userID: id, sessionID: try Self.parameter("session_id", context), by: visit.actor, origin: visit.origin)
            return ConsolePage.seeOther("/admin/users/" + ConsolePage.queryEncoded(id), done: "end_session")
        }
    }

    private static func list(_ label: String, _ items: [String]) -> [String: Any] {
        ["label": label, "items": items, "has_items": !items.isEmpty]
    }

    static func time(_ seconds: Int) -> String { Date(timeIntervalSince1970: TimeInterval(seconds)).consoleText }

    static func parameter(_ name: String, _ context: SesameRequestContext) throws -> String {
        let raw = context.parameters.get(name) ?? ""
        let value = raw.removingPercentEncoding ?? raw
        guard !value.isEmpty, value.count <= 256 else { throw ProviderFailure(.notFound, "\(name) is 1 to 256 characters.") }
        return value
    }
}
