import Foundation
import Hummingbird
import SesameProtocol

/// The console's clients and signing keys (issue #47, over ``ClientAdministration`` and
/// ``SigningKeyAdministration`` as the admin API is):
/// - `GET /admin/clients`, `GET /admin/clients/{id}`: every setting, and for an administrator a
///   form for the name, redirect and post-logout URIs, second-factor policy, PAR and DPoP,
///   validated as a new client is (an error keeps what was typed), seen by the next `/authorize`;
/// - `GET /admin/keys`, `POST /admin/keys/rotate`, `POST /admin/keys/{kid}/retire` (a sign-in of
///   the last 5 minutes).
struct ConsoleClientPages: Sendable {
    let page: ConsolePage
    let clients: ClientAdministration
    let keys: SigningKeyAdministration

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "clients") { visit in
            let t = visit.frame.text
            let rows: [[String: String]] = try await clients.list(by: visit.actor).clients.map { client in
                var kind = t.string(client.type == "confidential" ? "clients.confidential" : "clients.public")
                if client.firstParty { kind += ", " + t.string("clients.first_party") }
                return ["id": client.clientID, "name": client.name, "kind": kind]
            }
            return page.renderer.page(
                "clients", title: t.string("clients.title"),
                [
                    "rows": rows, "id_label": t.string("clients.id"), "name_label": t.string("clients.name"),
                    "kind_label": t.string("clients.kind"),
                ], frame: visit.frame)
        }
    }

    func detail(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "clients") { visit in
            var frame = visit.frame
            if request.uri.queryParameters["done"] == "saved" { frame.notice = frame.text.string("client.saved") }
            let client = try await clients.detail(clientID: try ConsoleUserPages.parameter("client_id", context), by: visit.actor)
            return render(client, frame: frame, actor: visit.actor, typed: nil)
        }
    }

    func update(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "clients") { visit in
            let id = try ConsoleUserPages.parameter("client_id", context)
            let form = visit.form
            let update = AdminClientUpdate(
                name: form["name"].map { $0.trimmingCharacters(in: .whitespaces) },
                redirectURIs: Self.lines(form["redirect_uris"]), postLogoutRedirectURIs: Self.lines(form["post_logout_redirect_uris"]),
                mfaPolicy: form["mfa_policy"], requirePushedRequests: form["require_par"] == "on",
                dpopBoundAccessTokens: form["dpop"] == "on", pinPolicy: try Self.pinPolicy(form))
            do {
                _ = try await clients.update(clientID: id, update, by: visit.actor, origin: visit.origin)
            } catch let failure as ProviderFailure where failure.code == .validationFailed || failure.code == .invalidRequest {
                // Shown above the form, which keeps what was typed.
                var frame = visit.frame
                frame.error = failure.description
                let client = try await clients.detail(clientID: id, by: visit.actor)
                return render(client, frame: frame, actor: visit.actor, typed: update, status: .badRequest)
            }
            return ConsolePage.seeOther("/admin/clients/" + ConsolePage.queryEncoded(id), done: "saved")
        }
    }

    func keyList(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "keys") { visit in
            var frame = visit.frame
            let t = frame.text
            switch request.uri.queryParameters["done"] {
            case "rotated": frame.notice = t.string("keys.rotated")
            case "retired": frame.notice = t.string("keys.retired_done")
            case "removed": frame.notice = t.string("keys.removed_done")
            default: break
            }
            let now = Date()
            let rows: [[String: Any]] = try await keys.list(by: visit.actor).keys.map { key in
                let state: String
                let signing = key.retiredAt.map { TimeInterval($0) > now.timeIntervalSince1970 } ?? true
                if !signing, let expires = key.expiresAt {
                    state = t.string("keys.retired", ["date": ConsoleUserPages.time(expires)])
                } else if TimeInterval(key.activatesAt) > now.timeIntervalSince1970 {
                    state = t.string("keys.pending")
                } else {
                    state = t.string("keys.signing")
                }
                return [
                    "kid": key.kid, "kid_path": ConsolePage.queryEncoded(key.kid), "algorithm": key.algorithm,
                    "created": ConsoleUserPages.time(key.createdAt), "state": state, "retirable": signing,
                    "csrf_token": frame.csrfToken, "retire": t.string("keys.retire"), "remove": t.string("keys.remove"),
                ]
            }
            return page.renderer.page(
                "keys", title: t.string("keys.title"),
                [
                    "rows": rows, "can_rotate": visit.actor.role.allows(.manageKeys), "rotate": t.string("keys.rotate"),
                    "kid_label": t.string("keys.kid"), "algorithm_label": t.string("keys.algorithm"),
                    "created_label": t.string("keys.created"), "state_label": t.string("keys.state"),
                    "actions_label": t.string("keys.actions"),
                ], frame: frame)
        }
    }

    func rotate(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "keys") { visit in
            _ = try await keys.rotate(by: visit.actor, origin: visit.origin)
            return ConsolePage.seeOther("/admin/keys", done: "rotated")
        }
    }

    /// `POST /admin/keys/{kid}/retire` (`immediately=on`: out of the key set at once).
    func retire(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "keys") { visit in
            let kid = try ConsoleUserPages.parameter("kid", context)
            let immediately = visit.form["immediately"] == "on"
            _ = try await keys.retire(kid: kid, immediately: immediately, by: visit.actor, origin: visit.origin)
            return ConsolePage.seeOther("/admin/keys", done: immediately ? "removed" : "retired")
        }
    }

    // MARK: Parts

    private func render(
        _ client: AdminClient, frame: ConsoleRenderer.Frame, actor: AdminActor, typed: AdminClientUpdate?,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let t = frame.text
        let builtIn = client.clientID == AdminConsoleClient.id || client.clientID == AdminCLIClient.id
        let mfa = typed?.mfaPolicy ?? client.mfaPolicy
        var content: [String: Any] = [
            "id": ConsolePage.queryEncoded(client.clientID),
            "facts": [
                ["label": t.string("clients.id"), "value": client.clientID],
                ["label": t.string("clients.kind"), "value": client.type + (client.firstParty ? ", " + t.string("clients.first_party") : "")],
                ["label": t.string("client.grants"), "value": client.grantTypes.joined(separator: " ")],
                ["label": t.string("client.scopes"), "value": client.scopes.joined(separator: " ")],
                ["label": t.string("client.redirect_uris"), "value": client.redirectURIs.joined(separator: " ")],
                ["label": t.string("client.mfa_policy"), "value": t.string("client.mfa." + client.mfaPolicy)],
            ],
            "editable": actor.role.allows(.manageClients) && !builtIn,
            "name": typed?.name ?? client.name,
            "redirect_uris": (typed?.redirectURIs ?? client.redirectURIs).joined(separator: "\n"),
            "post_logout_redirect_uris": (typed?.postLogoutRedirectURIs ?? client.postLogoutRedirectURIs).joined(separator: "\n"),
            "mfa_options": ["never", "when_enrolled", "always"].map {
                ["value": $0, "label": t.string("client.mfa." + $0), "selected": $0 == mfa] as [String: Any]
            },
            "require_par": typed?.requirePushedRequests ?? client.requirePushedRequests,
            "dpop": typed?.dpopBoundAccessTokens ?? client.dpopBoundAccessTokens,
            "pin_length": typed?.pinPolicy?.minimumLength ?? client.pinPolicy?.minimumLength ?? PINPolicy().minimumLength,
            "pin_max_attempts": typed?.pinPolicy?.maximumAttempts ?? client.pinPolicy?.maximumAttempts ?? PINPolicy().maximumAttempts,
            "pin_length_label": t.string("client.pin_length"), "pin_attempts_label": t.string("client.pin_attempts"),
            "settings_label": t.string("client.settings"), "name_label": t.string("client.name"),
            "redirect_label": t.string("client.redirect_uris"), "post_logout_label": t.string("client.post_logout_redirect_uris"),
            "mfa_label": t.string("client.mfa_policy"), "par_label": t.string("client.require_par"),
            "dpop_label": t.string("client.dpop"), "save": t.string("client.save"),
        ]
        if builtIn { content["built_in"] = t.string("client.built_in") }
        return page.renderer.page(
            "client", title: t.string("client.title", ["client": client.clientID]), content, frame: frame, status: status)
    }

    /// The PIN fields as an update; a field that is not a whole number is named.
    private static func pinPolicy(_ form: [String: String]) throws -> AdminPINPolicyUpdate? {
        func number(_ name: String) throws -> Int? {
            guard let text = form[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw ProviderFailure.invalidClientSetting(field: "pin_policy." + name, reason: "is a whole number") }
            return value
        }
        let update = AdminPINPolicyUpdate(minimumLength: try number("pin_length"), maximumAttempts: try number("pin_max_attempts"))
        return update == AdminPINPolicyUpdate() ? nil : update
    }

    /// A textarea's non-empty lines.
    private static func lines(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
