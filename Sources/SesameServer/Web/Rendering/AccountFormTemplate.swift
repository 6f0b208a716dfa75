import Hummingbird
import SesameProtocol

/// The hosted account pages (sign-up, email confirmation, password reset; ``HostedAccountPages``):
/// a title, an optional notice, the errors of the last submission (the general message, then
/// each field's), one form of labelled fields with a main and an optional secondary button, and
/// links. Like ``LoginTemplate`` it works without JavaScript, posts with the double-submit CSRF
/// token, and carries the authorization request the user came from in hidden fields.
enum AccountFormTemplate {
    static let name = "account_form"
    static let source = PageLayout.wrap(
        """
        <h1>{{title}}</h1>
        {{#error}}<div class="error" role="alert"><p>{{error}}</p>{{#details}}<p>{{.}}</p>{{/details}}</div>{{/error}}
        {{#notice}}<p role="status">{{notice}}</p>{{/notice}}
        {{#action}}
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        {{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/hidden}}
        {{#fields}}
        <label for="{{name}}">{{label}}</label>
        <input type="{{type}}" id="{{name}}" name="{{name}}" value="{{value}}" autocomplete="{{autocomplete}}"{{#required}} required{{/required}}{{#code}} inputmode="numeric" pattern="[0-9]{6}" maxlength="6"{{/code}}{{#invalid}} aria-invalid="true"{{/invalid}}>
        {{#hint}}<p class="hint">{{hint}}</p>{{/hint}}
        {{/fields}}
        \(ChallengeBlock.fields)
        <button type="submit">{{submit}}</button>
        {{#secondary}}<button type="submit" class="secondary" name="{{secondary_name}}" value="1" formnovalidate>{{secondary}}</button>{{/secondary}}
        </form>
        {{/action}}
        \(ChallengeBlock.script)
        {{#links}}<div class="links">{{#items}}<a href="{{href}}">{{label}}</a>{{/items}}</div>{{/links}}
        """)
}

extension PageRenderer {
    /// One input of an ``AccountForm``.
    struct AccountField {
        enum Kind: String { case email, password, text, code }
        var name: String
        var labelKey: String
        var kind: Kind
        var value = ""
        var autocomplete: String
        var required = true
        var hintKey: String?
    }

    /// The content of one hosted account page.
    struct AccountForm {
        var titleKey: String
        /// A sentence above the form; `{email}` is replaced with ``email``.
        var noticeKey: String?
        var email = ""
        /// The shortest password the policy accepts, for `{min}` in password hints.
        var minimumPasswordLength = 8
        /// The form's target; `nil` for a page without a form (a confirmation).
        var action: String?
        var fields: [AccountField] = []
        var hiddenFields: [(name: String, value: String)] = []
        var csrfToken = ""
        var submitKey = ""
        /// A second submit button (e.g. "send a new code") and the field name it sets.
        var secondary: (key: String, name: String)?
        var links: [(labelKey: String, href: String)] = []
        /// The failure of the last submission: its message and each field's.
        var failure: (messageKey: String, fieldMessages: [(field: String, message: String)])?
        /// The registered redirect URI the form may end at (``ContentSecurityPolicy``).
        var redirectURI: String?
        /// An abuse challenge the browser solves before the form is accepted (``ChallengeBlock``).
        var challenge: ProofOfWorkChallenge?
    }

    func account(_ form: AccountForm, locales: [String], status: HTTPResponse.Status = .ok) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        let invalid = Set(form.failure?.fieldMessages.map(\.field) ?? [])
        var context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales),
            "dir": direction(for: locales),
            "title": t(form.titleKey),
            "csrf_token": form.csrfToken,
            "hidden": form.hiddenFields.map { ["name": $0.name, "value": $0.value] },
            "submit": t(form.submitKey),
            "fields": form.fields.map { field -> [String: Any] in
                var item: [String: Any] = [
                    "name": field.name, "label": t(field.labelKey), "value": field.value,
                    "type": field.kind == .code ? "text" : field.kind.rawValue, "autocomplete": field.autocomplete,
                    "required": field.required, "code": field.kind == .code, "invalid": invalid.contains(field.name),
                ]
                if let hintKey = field.hintKey {
                    item["hint"] = localizer.string(
                        hintKey, locales: locales, arguments: ["min": String(form.minimumPasswordLength)])
                }
                return item
            },
        ]
        if let action = form.action { context["action"] = action }
        if let noticeKey = form.noticeKey {
            context["notice"] = localizer.string(noticeKey, locales: locales, arguments: ["email": form.email])
        }
        if let secondary = form.secondary {
            context["secondary"] = t(secondary.key)
            context["secondary_name"] = secondary.name
        }
        if !form.links.isEmpty {
            context["links"] = ["items": form.links.map { ["label": t($0.labelKey), "href": $0.href] }]
        }
        if let failure = form.failure {
            context["error"] = t(failure.messageKey)
            context["details"] = failure.fieldMessages.map(\.message)
        }
        var policy = ContentSecurityPolicy.allowingRedirects(to: form.redirectURI.map { [$0] } ?? [])
        if let challenge = form.challenge {
            context["challenge"] = challengeContext(challenge, locales: locales)
            policy.allowsOwnScripts = true
        }
        return html(
            library.render(context, withTemplate: AccountFormTemplate.name) ?? "", status: status, policy: policy)
    }
}
