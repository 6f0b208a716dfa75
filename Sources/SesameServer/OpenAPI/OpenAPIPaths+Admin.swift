import Foundation
import SesameProtocol

extension OpenAPIPaths {
    // MARK: The admin API (issue #47, docs/admin.md)

    /// Every admin operation's refusals: no or a bad token, the scope, the second factor, the role.
    static let adminToken: Responses = merged(
        ["401": .error(
            "invalid_token (1011): the Bearer access token is missing, expired, revoked or its user disabled. insufficient_authorization (2002): the sign-in had no second factor (WWW-Authenticate: Bearer error=\"insufficient_user_authentication\", acr_values).")],
        ["403": .error(
            "insufficient_scope (1012): the token lacks the sesame:admin scope. admin_role_required (1034): the user has no operator role, or one that does not allow this (helpdesk: users and the audit log; auditor: reading only).")])

    static var adminPaths: [String: OpenAPI.PathItem] {
        typealias Operation = OpenAPI.Operation
        let userID = OpenAPI.Parameter(
            name: "user_id", in: "path", required: true, description: "The user's id (the sub of their tokens).",
            schema: .string())
        let sessionID = OpenAPI.Parameter(
            name: "session_id", in: "path", required: true, description: "A session id from the user's sessions.",
            schema: .string())
        let notFound: Responses = ["404": .error("user_not_found (3003): no user has that id.")]
        var prefix = OpenAPI.Schema.string()
        prefix.maxLength = UserSearch.maximumPrefixLength
        var limit = OpenAPI.Schema.integer("Users per page.")
        limit.minimum = 1
        limit.maximum = UserSearch.maximumLimit
        func change(_ id: String, _ summary: String, _ description: String, extra: Responses = [:]) -> OpenAPI.PathItem {
            OpenAPI.PathItem(
                post: Operation(
                    id, tag: "Admin", summary: summary, description: description, parameters: [userID],
                    responses: merged(["200": .json("AdminUserChange", "The user after the change.")], extra, notFound, adminToken),
                    security: bearer))
        }
        return [
            "/admin/api/users": OpenAPI.PathItem(
                get: Operation(
                    "searchUsers", tag: "Admin", summary: "Search the users",
                    description: "Users whose username, email, name or subject starts with q (case-insensitive; empty lists every user by username), a page at a time. Roles: any.",
                    parameters: [
                        OpenAPI.Parameter(name: "q", in: "query", required: false, description: "The prefix.", schema: prefix),
                        OpenAPI.Parameter(
                            name: "cursor", in: "query", required: false,
                            description: "next_cursor of the previous page.", schema: .string()),
                        OpenAPI.Parameter(
                            name: "limit", in: "query", required: false, description: "1 to 100 (25).", schema: limit),
                    ],
                    responses: merged(
                        ["200": .json("AdminUserPage", "A page of users.")],
                        ["400": .error("invalid_request (1000): q longer than 320 characters, a cursor this server did not hand out, or limit outside 1–100.")],
                        adminToken),
                    security: bearer)),
            "/admin/api/users/{user_id}": OpenAPI.PathItem(
                get: Operation(
                    "getUser", tag: "Admin", summary: "One user, for the help desk",
                    description: "Profile, factors, passkeys, PIN devices, devices, linked identities and live sessions; never a secret. Roles: any.",
                    parameters: [userID],
                    responses: merged(["200": .json("AdminUserDetail", "The user.")], notFound, adminToken),
                    security: bearer)),
            "/admin/api/users/{user_id}/disable": change(
                "disableUser", "Disable a user",
                "Every session ends at once (refresh tokens fail with invalid_grant in every process) and no sign-in succeeds until enabled. Roles: admin, helpdesk.",
                extra: ["400": .error("invalid_request (1000): operators cannot disable themselves.")]),
            "/admin/api/users/{user_id}/enable": change("enableUser", "Enable a user", "Old sessions stay ended. Roles: admin, helpdesk."),
            "/admin/api/users/{user_id}/unlock": change(
                "unlockUser", "Clear a user's sign-in lockouts", "In every process. Roles: admin, helpdesk."),
            "/admin/api/users/{user_id}/sessions/end": change(
                "endUserSessions", "End every session of a user", "Refresh tokens, browser and device sessions. Roles: admin, helpdesk."),
            "/admin/api/users/{user_id}/sessions/{session_id}": OpenAPI.PathItem(
                delete: Operation(
                    "endUserSession", tag: "Admin", summary: "End one session of a user",
                    description: "Roles: admin, helpdesk.", parameters: [userID, sessionID],
                    responses: merged(
                        ["200": .json("AdminUserChange", "The user after the change.")],
                        ["404": .error("user_not_found (3003) or not_found (1019): no such user, or no live session with that id.")],
                        adminToken),
                    security: bearer)),
            "/admin/api/users/{user_id}/role": OpenAPI.PathItem(
                post: Operation(
                    "setUserRole", tag: "Admin", summary: "Grant or take away an operator role",
                    description: "admin, helpdesk, auditor, or null. Roles: admin; an administrator cannot take their own role away.",
                    parameters: [userID], requestBody: .json("AdminRoleUpdate"),
                    responses: merged(
                        ["200": .json("AdminUserSummary", "The user with the new role.")],
                        ["400": .error("invalid_request (1000): not a JSON object with role, an unknown role, or an administrator's own role.")],
                        notFound, adminToken),
                    security: bearer)),
        ]
    }
}
