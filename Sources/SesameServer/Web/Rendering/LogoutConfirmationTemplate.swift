import Hummingbird

/// The sign-out confirmation of RP-Initiated Logout 1.0 §2: without a valid `id_token_hint` the
/// OP asks the End-User whether to sign out. Like ``LoginTemplate`` it works without
/// JavaScript and posts to `/logout` with the double-submit CSRF token; the logout parameters
/// (`client_id`, `post_logout_redirect_uri`, `state`, `ui_locales`) travel in hidden fields and
/// are validated again on POST, and the hidden `confirm` field marks the confirmation.
enum LogoutConfirmationTemplate {
    static let name = "logout_confirmation"
    static let source = PageLayout.wrap(
        """
        <h1>{{title}}</h1>
        <p>{{message}}</p>
        <form method="post" action="/logout">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        {{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/hidden}}
        <button type="submit">{{submit}}</button>
        </form>
        """)
}

extension PageRenderer {
    /// The content of the sign-out confirmation.
    struct LogoutConfirmation {
        /// The logout parameters and the `confirm` marker, carried as hidden fields.
        var hiddenFields: [(name: String, value: String)]
        var csrfToken: String
        /// The validated `post_logout_redirect_uri` the confirmed sign-out ends at, if any.
        var redirectURI: String?
    }

    func logoutConfirmation(_ form: LogoutConfirmation, locales: [String]) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        let context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales),
            "dir": direction(for: locales),
            "title": t("logout.confirm.title"),
            "message": t("logout.confirm.body"),
            "submit": t("logout.confirm.submit"),
            "csrf_token": form.csrfToken,
            "hidden": form.hiddenFields.map { ["name": $0.name, "value": $0.value] },
        ]
        return html(
            library.render(context, withTemplate: LogoutConfirmationTemplate.name) ?? "", status: .ok,
            policy: .allowingRedirects(to: form.redirectURI.map { [$0] } ?? []))
    }
}
