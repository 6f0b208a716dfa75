import Hummingbird
import SesameProtocol

/// The hosted login page's second step (docs/first-party-and-accounts.md): choose how to verify, then enter
/// the code. Like ``LoginTemplate`` it works without JavaScript, posts to `/login` with the
/// double-submit CSRF token and carries the authorization request in hidden fields, plus the
/// `auth_session` of the pending sign-in. Each method is a submit button named `mfa_method`.
enum MFATemplate {
    static let name = "mfa"
    static let source = PageLayout.wrap(
        """
        <h1>{{title}}</h1>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        {{#message}}<p>{{message}}</p>{{/message}}
        <form method="post" action="/login">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        {{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/hidden}}
        <input type="hidden" name="auth_session" value="{{auth_session}}">
        {{#choose}}
        <p>{{choose_label}}</p>
        {{#methods}}<button type="submit" name="mfa_method" value="{{value}}">{{label}}</button>
        {{/methods}}
        {{/choose}}
        {{#passkey}}<input type="hidden" name="passkey_assertion" value="">{{/passkey}}
        {{#verify}}
        <label for="mfa_code">{{code_label}}</label>
        <input type="text" id="mfa_code" name="mfa_code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required autofocus>
        <button type="submit">{{submit}}</button>
        {{/verify}}
        </form>
        {{#passkey}}<script src="\(PageScripts.passkey)"></script>{{/passkey}}
        """)
}

extension PageRenderer {
    /// The content of the MFA step.
    struct MFAForm {
        /// The authorization request parameters, carried as hidden fields.
        var hiddenFields: [(name: String, value: String)]
        var csrfToken: String
        var authSession: String
        /// Methods to choose from; empty when asking for the code.
        var methods: [MFAMethod]
        /// The code's destination, masked (email/SMS), once it was sent.
        var sentTo: String?
        /// Asking for a TOTP code.
        var totp = false
        var errorKey: String?
        /// The registered redirect URI the sign-in ends at (``ContentSecurityPolicy``).
        var redirectURI: String
    }

    func mfa(_ form: MFAForm, locales: [String], status: HTTPResponse.Status = .ok) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        var context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales),
            "dir": direction(for: locales),
            "title": t("mfa.title"),
            "csrf_token": form.csrfToken,
            "hidden": form.hiddenFields.map { ["name": $0.name, "value": $0.value] },
            "auth_session": form.authSession,
        ]
        if form.methods.isEmpty {
            context["verify"] = true
            context["code_label"] = t("mfa.code_label")
            context["submit"] = t("mfa.submit")
            if let sentTo = form.sentTo {
                context["message"] = localizer.string("mfa.sent", locales: locales, arguments: ["destination": sentTo])
            } else if form.totp {
                context["message"] = t("mfa.totp_hint")
            }
        } else {
            context["choose"] = true
            context["choose_label"] = t("mfa.choose")
            context["methods"] = form.methods.map { ["value": $0.rawValue, "label": t("mfa.method." + $0.rawValue)] }
        }
        if let errorKey = form.errorKey { context["error"] = t(errorKey) }
        var policy = ContentSecurityPolicy.allowingRedirects(to: [form.redirectURI])
        if form.methods.contains(.passkey) {
            // The passkey button is answered by this origin's script (``PasskeyScripts``).
            context["passkey"] = true
            policy.allowsOwnScripts = true
            policy.allowsOwnConnections = true
        }
        return html(library.render(context, withTemplate: MFATemplate.name) ?? "", status: status, policy: policy)
    }
}
