import Foundation
import Hummingbird
import SesameProtocol

/// The users part of the admin API (issue #47, ``UserAdministration``):
/// - `GET /admin/api/users?q=&cursor=&limit=`: a page of users whose username, email, name or
///   subject starts with `q` (case-insensitive; empty lists everyone), `next_cursor` for the
///   next page;
/// - `GET /admin/api/users/{user_id}`: one user, with factors, passkeys, PIN registrations,
///   devices, linked identities and live sessions;
/// - `POST …/disable`, `…/enable`, `…/unlock` (clears sign-in lockouts), `…/sessions/end`
///   (every session), `DELETE …/sessions/{session_id}` (one);
/// - `POST …/role` with `{"role": "admin" | "helpdesk" | "auditor" | null}`.
///
/// The operator is ``AdminAuthentication``'s; what the role may do is the core's to decide.
struct AdminUsersEndpoint: Sendable {
    let authentication: AdminAuthentication
    let users: UserAdministration

    func search(_ request: Request, context: SesameRequestContext) async throws -> Response {
        // Who asks first (401/403 before any 400), then what they ask.
        let actor = try await authentication.authenticate(request, context: context)
        let query = request.uri.queryParameters
        let prefix = query["q"].map(String.init) ?? ""
        guard prefix.count <= UserSearch.maximumPrefixLength else {
            throw EndpointFailure(.invalidRequest, "q is at most \(UserSearch.maximumPrefixLength) characters.")
        }
        var cursor: UserSearchCursor?
        if let text = query["cursor"].map(String.init), !text.isEmpty {
            guard let decoded = UserAdministration.decodeCursor(text) else {
                throw EndpointFailure(.invalidRequest, "cursor is not one this server handed out; start again without it.")
            }
            cursor = decoded
        }
        var limit = 25
        if let text = query["limit"].map(String.init) {
            guard let value = Int(text), (1...UserSearch.maximumLimit).contains(value) else {
                throw EndpointFailure(.invalidRequest, "limit is a whole number from 1 to \(UserSearch.maximumLimit).")
            }
            limit = value
        }
        let page = try await authentication.perform(actor, context: context) { actor in
            try await users.search(UserSearch(prefix: prefix, cursor: cursor, limit: limit), by: actor)
        }
        return JSONResponse.make(page)
    }

    func detail(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.userID(context)
        return JSONResponse.make(
            try await authentication.perform(actor, context: context) { try await users.detail(userID: id, by: $0) })
    }

    func disable(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await change(request, context) { id, actor, origin in try await users.disable(userID: id, by: actor, origin: origin) }
    }

    func enable(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await change(request, context) { id, actor, origin in try await users.enable(userID: id, by: actor, origin: origin) }
    }

    func unlock(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await change(request, context) { id, actor, origin in try await users.unlock(userID: id, by: actor, origin: origin) }
    }

    func endSessions(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await change(request, context) { id, actor, origin in
            try await users.endSessions(userID: id, sessionID: nil, by: actor, origin: origin)
        }
    }

    func endSession(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await change(request, context) { id, actor, origin in
            try await users.endSessions(
                userID: id, sessionID: try Self.parameter("session_id", context), by: actor, origin: origin)
        }
    }

    func setRole(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.userID(context)
        let body = try await JSONRequest.body(of: request, context: context)
        let change: AdminRoleUpdate
        do {
            change = try JSONDecoder().decode(AdminRoleUpdate.self, from: body)
        } catch {
            throw EndpointFailure(.invalidRequest, #"Send {"role": "admin"}, "helpdesk", "auditor", or null to take the role away."#)
        }
        var role: AdminRole?
        if let name = change.role {
            guard let parsed = AdminRole(rawValue: name) else {
                throw EndpointFailure(.invalidRequest, "role is admin, helpdesk, auditor or null, not \(name.prefix(40)).")
            }
            role = parsed
        }
        let summary = try await authentication.perform(actor, context: context) { actor in
            try await users.setRole(role, userID: id, by: actor, origin: RequestOrigin(context))
        }
        return JSONResponse.make(summary)
    }

    // MARK: Parts

    private func change(
        _ request: Request, _ context: SesameRequestContext,
        _ body: (String, AdminActor, RequestOrigin) async throws -> AdminUserChange
    ) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.userID(context)
        let result = try await authentication.perform(actor, context: context) { actor in
            try await body(id, actor, RequestOrigin(context))
        }
        return JSONResponse.make(result)
    }

    private static func userID(_ context: SesameRequestContext) throws -> String {
        try parameter("user_id", context)
    }

    private static func parameter(_ name: String, _ context: SesameRequestContext) throws -> String {
        try AdminRequest.parameter(name, context)
    }
}
