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
        func mail(_ id: String, _ summary: String, _ description: String) -> OpenAPI.PathItem {
            OpenAPI.PathItem(
                post: Operation(
                    id, tag: "Admin", summary: summary, description: description, parameters: [userID],
                    responses: merged(
                        ["204": .empty("Sent (or held back by the recipient's mail quota).")],
                        ["400": .error("invalid_request (1000): the address is verified already.")],
                        ["503": .error("temporarily_unavailable (5001): the mail could not be sent; try again later.")], notFound,
                        adminToken),
                    security: bearer))
        }
        func removal(
            _ id: String, _ summary: String, _ name: String, _ what: String, _ description: String, values: [String]? = nil
        ) -> OpenAPI.PathItem {
            OpenAPI.PathItem(
                delete: Operation(
                    id, tag: "Admin", summary: summary, description: description,
                    parameters: [
                        userID, OpenAPI.Parameter(name: name, in: "path", required: true, description: what, schema: .string(values: values)),
                    ],
                    responses: merged(
                        ["204": .empty("Removed.")],
                        ["404": .error("user_not_found (3003) or not_found (1019): no such user, or the user has no such \(name).")],
                        ["400": .error("invalid_request (1000): an unknown method, or a value over 512 characters.")], adminToken),
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
                    security: bearer),
                post: Operation(
                    "createUser", tag: "Admin", summary: "Create a user",
                    description: "username and email required; without a password the user is emailed a password-reset code to choose one (an invitation). Roles: admin, helpdesk.",
                    requestBody: .json("AdminUserProfile"),
                    responses: merged(
                        ["201": .json("AdminUserDetail", "The new user.")],
                        ["400": .error("validation_failed (3000): a field is refused or taken; error_details names it. invalid_request (1000): not a JSON object.")],
                        adminToken),
                    security: bearer)),
            "/admin/api/users/{user_id}/password-reset": mail(
                "sendPasswordReset", "Email the user a password-reset code", "In the user's language. Roles: admin, helpdesk."),
            "/admin/api/users/{user_id}/verify-email": mail(
                "sendEmailVerification", "Email the user a verification code", "For an address not verified yet. Roles: admin, helpdesk."),
            "/admin/api/users/{user_id}": OpenAPI.PathItem(
                get: Operation(
                    "getUser", tag: "Admin", summary: "One user, for the help desk",
                    description: "Profile, factors, passkeys, PIN devices, devices, linked identities and live sessions; never a secret. Roles: any.",
                    parameters: [userID],
                    responses: merged(["200": .json("AdminUserDetail", "The user.")], notFound, adminToken),
                    security: bearer),
                post: Operation(
                    "updateUser", tag: "Admin", summary: "Change a user's profile",
                    description: "The fields given (username, email, email_verified, name) change; a new email address is unverified unless email_verified says otherwise. Never a password. Roles: admin, helpdesk.",
                    parameters: [userID], requestBody: .json("AdminUserProfile"),
                    responses: merged(
                        ["200": .json("AdminUserDetail", "The user after the change.")],
                        ["400": .error("validation_failed (3000): a field is refused or taken. invalid_request (1000): a password, or not a JSON object.")],
                        notFound, adminToken),
                    security: bearer),
                delete: Operation(
                    "deleteUser", tag: "Admin", summary: "Delete a user",
                    description: "As the owner's own deletion: tokens and sessions end at once; factors, devices, PIN registrations, passkeys, linked identities, codes and the role go with the account; audit records stay. Needs a sign-in of the last 5 minutes. Roles: admin, helpdesk.",
                    parameters: [userID],
                    responses: merged(
                        ["204": .empty("Deleted.")], ["400": .error("invalid_request (1000): an operator's own account.")],
                        notFound, Self.recentSignIn, adminToken),
                    security: bearer)),
            "/admin/api/users/{user_id}/factors/{method}": removal(
                "removeUserFactor", "Remove a second factor", "method", "email, sms or totp.",
                "The user signs in with their other factors or enrols again. Roles: admin, helpdesk.",
                values: ["email", "sms", "totp", "passkey"]),
            "/admin/api/users/{user_id}/passkeys/{credential_id}": removal(
                "removeUserPasskey", "Remove a passkey", "credential_id", "The passkey's id, from the user's passkeys.",
                "It signs in no more. Roles: admin, helpdesk."),
            "/admin/api/users/{user_id}/pin-registrations/{registration_id}": removal(
                "removeUserPINRegistration", "Remove a PIN device", "registration_id", "The registration's id.",
                "A lost or stolen device: every token issued through it ends at once. Roles: admin, helpdesk."),
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
        ].merging(adminClientPaths) { first, _ in first }
    }

    static let recentSignIn: Responses = [
        "401": .error(
            "insufficient_authorization (2002): this change needs a sign-in of the last 5 minutes (WWW-Authenticate: Bearer error=\"insufficient_user_authentication\", max_age=300); sign in again.")
    ]

    private static var adminClientPaths: [String: OpenAPI.PathItem] {
        typealias Operation = OpenAPI.Operation
        let clientID = OpenAPI.Parameter(
            name: "client_id", in: "path", required: true, description: "The client's id.", schema: .string())
        let notFound: Responses = ["404": .error("not_found (1019): no client has that id.")]
        let providerNotFound: Responses = ["404": .error("not_found (1019): no provider has that id.")]
        let providerID = OpenAPI.Parameter(
            name: "provider_id", in: "path", required: true, description: "The provider's name.", schema: .string())
        func query(_ name: String, _ description: String, _ schema: OpenAPI.Schema = .string()) -> OpenAPI.Parameter {
            OpenAPI.Parameter(name: name, in: "query", required: false, description: description, schema: schema)
        }
        var seconds = OpenAPI.Schema.integer("Seconds since 1970.")
        seconds.minimum = 0
        seconds.maximum = 99_999_999_999
        var pageSize = OpenAPI.Schema.integer("Records per page.")
        pageSize.minimum = 1
        pageSize.maximum = 500
        var exportSize = pageSize
        exportSize.maximum = AdminAuditEndpoint.maximumExport
        var cursor = OpenAPI.Schema.integer("next_cursor of the previous page.")
        cursor.minimum = 1
        cursor.maximum = Int(Int64.max)
        var filter = OpenAPI.Schema.string()
        filter.maxLength = 256
        func filters(_ limit: OpenAPI.Schema) -> [OpenAPI.Parameter] {
            [
                query("event", "Event names, or prefixes ending in . (sign_in.), separated by commas.", filter),
                query("user_id", "The user's id.", filter), query("client_id", "The client's id.", filter),
                query("client_address", "The client address as keyed (IPv4, or an IPv6 /64).", filter),
                query("since", "From this time on.", seconds), query("until", "Before this time.", seconds),
                query("cursor", "next_cursor of the previous page.", cursor), query("limit", "How many.", limit),
            ]
        }
        let badFilter: Responses = ["400": .error("invalid_request (1000): a filter is too long, a time is not whole seconds, or limit or cursor is out of range.")]
        return [
            "/admin/api/clients": OpenAPI.PathItem(
                get: Operation(
                    "listClients", tag: "Admin", summary: "Every client with every setting",
                    description: "Never a secret or its hash. Roles: admin, auditor.",
                    responses: merged(["200": .json("AdminClientList", "The clients, by id.")], adminToken), security: bearer),
                post: Operation(
                    "createClient", tag: "Admin", summary: "Register a client",
                    description: "client_id required; confidential: true answers the secret in client_secret, once. The settings are checked as sesame client add checks them. Roles: admin.",
                    requestBody: .json("AdminClientUpdate"),
                    responses: merged(
                        ["201": .json("AdminClient", "The new client (with its secret when confidential).")],
                        ["400": .error("validation_failed (3000): a setting is refused; error_details names it. invalid_request (1000): the id is taken, or not a JSON object.")],
                        adminToken),
                    security: bearer)),
            "/admin/api/clients/{client_id}": OpenAPI.PathItem(
                get: Operation(
                    "getClient", tag: "Admin", summary: "One client", description: "Roles: admin, auditor.", parameters: [clientID],
                    responses: merged(["200": .json("AdminClient", "The client.")], notFound, adminToken), security: bearer),
                post: Operation(
                    "updateClient", tag: "Admin", summary: "Change a client's settings",
                    description: "The settings the body names change; the whole client is validated again, as sesame client add validates a new one. This process sees the change at once, the others within 2 seconds. Roles: admin.",
                    parameters: [clientID], requestBody: .json("AdminClientUpdate"),
                    responses: merged(
                        ["200": .json("AdminClient", "The client after the change.")],
                        ["400": .error("validation_failed (3000): a setting is refused; error_details names it. invalid_request (1000): not a JSON object of settings.")],
                        notFound, adminToken),
                    security: bearer),
                delete: Operation(
                    "deleteClient", tag: "Admin", summary: "Remove a client",
                    description: "With its codes and refresh tokens. Needs a sign-in of the last 5 minutes. Roles: admin.",
                    parameters: [clientID],
                    responses: merged(
                        ["204": .empty("Removed.")],
                        ["400": .error("invalid_request (1000): the admin tools' own registrations (sesame-admin-console, sesame-admin-cli) stay.")],
                        notFound, recentSignIn, adminToken),
                    security: bearer)),
            "/admin/api/clients/{client_id}/secret": OpenAPI.PathItem(
                post: Operation(
                    "rotateClientSecret", tag: "Admin", summary: "A new secret for a confidential client",
                    description: "The new secret is in client_secret of this answer only; the old one stops working. Needs a sign-in of the last 5 minutes. Roles: admin.",
                    parameters: [clientID],
                    responses: merged(
                        ["200": .json("AdminClient", "The client, with the new secret.")],
                        ["400": .error("invalid_request (1000): a public client has no secret.")],
                        notFound, recentSignIn, adminToken),
                    security: bearer)),
            "/admin/api/keys": OpenAPI.PathItem(
                get: Operation(
                    "listSigningKeys", tag: "Admin", summary: "The signing keys", description: "Never a private key. Roles: admin, auditor.",
                    responses: merged(["200": .json("AdminSigningKeyList", "Newest first.")], adminToken), security: bearer)),
            "/admin/api/keys/rotate": OpenAPI.PathItem(
                post: Operation(
                    "rotateSigningKeys", tag: "Admin", summary: "Rotate the signing keys",
                    description: "As sesame keys rotate: new keys sign from now on, the old stay published for the longest token lifetime plus 5 minutes; the other processes use the new keys within a second. Needs a sign-in of the last 5 minutes. Roles: admin.",
                    responses: merged(["200": .json("AdminSigningKeyList", "The keys after the rotation.")], recentSignIn, adminToken),
                    security: bearer)),
            "/admin/api/bootstrap": OpenAPI.PathItem(
                post: Operation(
                    "bootstrapAdministrator", tag: "Admin", summary: "Become the first administrator",
                    description: "While no user holds an operator role, sesame serve prints a one-time code (valid an hour, 5 wrong answers). A user signed in with the admin scope and a second factor sends it and becomes admin. Refused once anyone holds a role.",
                    requestBody: .json("AdminBootstrapRequest"),
                    responses: merged(
                        ["200": .json("AdminBootstrapResult", "The new administrator.")],
                        ["400": .error("invalid_verification_code (3004): the code is wrong, used or expired (remaining_attempts). invalid_request (1000): an administrator exists, or not a JSON object with code.")],
                        adminToken),
                    security: bearer)),
            "/admin/api/keys/{kid}/retire": OpenAPI.PathItem(
                post: Operation(
                    "retireSigningKey", tag: "Admin", summary: "Retire one signing key",
                    description: "It stops signing now and leaves the key set after the longest token lifetime plus 5 minutes, or at once with immediately (a key believed compromised: the tokens it signed fail from then on, in every process within a second). When it was its algorithm's signing key, a new key signs from now. Needs a sign-in of the last 5 minutes. Roles: admin.",
                    parameters: [OpenAPI.Parameter(name: "kid", in: "path", required: true, description: "The key's id.", schema: .string())],
                    requestBody: .json("AdminKeyRetirement"),
                    responses: merged(
                        ["200": .json("AdminSigningKeyList", "The keys after the retirement.")],
                        ["400": .error("invalid_request (1000): not a JSON object with immediately.")],
                        ["404": .error("not_found (1019): no published key has that kid.")], recentSignIn, adminToken),
                    security: bearer)),
            "/admin/api/audit": OpenAPI.PathItem(
                get: Operation(
                    "readAuditLog", tag: "Admin", summary: "The audit log, newest first",
                    description: "Roles: any.", parameters: filters(pageSize),
                    responses: merged(["200": .json("AdminAuditPage", "A page of records.")], badFilter, adminToken),
                    security: bearer)),
            "/admin/api/providers": OpenAPI.PathItem(
                get: Operation(
                    "listProviders", tag: "Admin", summary: "The federation providers",
                    description: "Never a broker secret (has_broker_secret says whether one is kept). Roles: admin, auditor.",
                    responses: merged(["200": .json("AdminFederationProviderList", "By id.")], adminToken), security: bearer),
                post: Operation(
                    "addProvider", tag: "Admin", summary: "Register a federation provider",
                    description: "Checked as sesame provider add checks it; broker_client_secret is sealed and never answered. Roles: admin.",
                    requestBody: .json("AdminFederationProviderSpec"),
                    responses: merged(
                        ["201": .json("AdminFederationProvider", "The registered provider.")],
                        ["400": .error("validation_failed (3000): a setting is refused; error_details names it. invalid_request (1000): a provider has the id, or the body is not a JSON object.")],
                        adminToken),
                    security: bearer)),
            "/admin/api/providers/{provider_id}": OpenAPI.PathItem(
                post: Operation(
                    "updateProvider", tag: "Admin", summary: "Change a federation provider's settings",
                    description: "The settings the body gives change; the others and a kept secret stay. Roles: admin.",
                    parameters: [providerID],
                    requestBody: .json("AdminFederationProviderSpec"),
                    responses: merged(
                        ["200": .json("AdminFederationProvider", "The provider after the change.")],
                        ["400": .error("validation_failed (3000): a setting is refused. invalid_request (1000): not a JSON object.")],
                        providerNotFound, adminToken),
                    security: bearer),
                delete: Operation(
                    "removeProvider", tag: "Admin", summary: "Remove a federation provider",
                    description: "Its linked identities are unlinked; accounts keep their other ways to sign in. Roles: admin.",
                    parameters: [providerID],
                    responses: merged(["204": .empty("Removed.")], providerNotFound, adminToken), security: bearer)),
            "/admin/api/overview": OpenAPI.PathItem(
                get: Operation(
                    "readOverview", tag: "Admin", summary: "What the console's home page shows",
                    description: "Sign-ins, failed sign-ins, lockouts and new users per interval of the window (from the audit log), failures by reason, users, live browser sessions, the signing keys' ages. Roles: any.",
                    parameters: [
                        query(
                            "window", "hour (5-minute intervals), day (hours) or month (days); day when absent.",
                            .string(values: OperatorOverview.Window.allCases.map(\.rawValue)))
                    ],
                    responses: merged(
                        ["200": .json("AdminOverview", "The overview.")],
                        ["400": .error("invalid_request (1000): window is not hour, day or month.")], adminToken),
                    security: bearer)),
            "/admin/api/audit/export": OpenAPI.PathItem(
                get: Operation(
                    "exportAuditLog", tag: "Admin", summary: "The audit log as NDJSON",
                    description: "One record a line, newest first, up to limit (10,000); the Sesame-Next-Cursor header says where the next export starts. Roles: any.",
                    parameters: filters(exportSize),
                    responses: merged(
                        ["200": .json("AdminAuditRecord", "One AdminAuditRecord a line.", mediaType: "application/x-ndjson")],
                        badFilter, adminToken),
                    security: bearer)),
        ]
    }
}
