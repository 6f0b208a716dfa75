import Foundation
import Hummingbird

/// The device verification page (RFC 8628 §3.3): the form for the user code, then, once the
/// user has signed in, the question whether to allow the device, naming the app, the device's
/// own name, the scopes and the account (§5.4: the user confirms; a link never approves). No
/// JavaScript; both forms post with the double-submit CSRF token.
enum DeviceVerificationTemplate {
    static let name = "device_verification"
    static let source = PageLayout.wrap(
        """
        <h1>{{title}}</h1>
        {{#error}}<div class="error" role="alert"><p>{{error}}</p></div>{{/error}}
        {{#entry}}
        <p>{{body}}</p>
        <form method="post" action="/device">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        {{#ui_locales}}<input type="hidden" name="ui_locales" value="{{ui_locales}}">{{/ui_locales}}
        <label for="user_code">{{code_label}}</label>
        <input type="text" id="user_code" name="user_code" value="{{user_code}}" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64" required autofocus{{#error}} aria-invalid="true"{{/error}}>
        <button type="submit">{{continue}}</button>
        </form>
        {{/entry}}
        {{#confirm}}
        <p>{{body}}</p>
        {{#device_name}}<p>{{device_name}}</p>{{/device_name}}
        <p>{{scopes_label}}</p>
        <ul>{{#scopes}}<li><code>{{name}}</code></li>{{/scopes}}</ul>
        {{#account}}<p>{{account}}</p>{{/account}}
        <p class="error">{{warning}}</p>
        <form method="post" action="/device/decision">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="code" value="{{code}}">
        {{#ui_locales}}<input type="hidden" name="ui_locales" value="{{ui_locales}}">{{/ui_locales}}
        <button type="submit" name="decision" value="approve">{{approve}}</button>
        <button type="submit" name="decision" value="deny" class="secondary">{{deny}}</button>
        </form>
        {{/confirm}}
        """)
}

extension PageRenderer {
    /// The code form: `userCode` pre-filled (from `verification_uri_complete` or as typed),
    /// `errorText` a localized refusal.
    struct DeviceCodeEntry {
        var userCode: String
        var csrfToken: String
        var uiLocales: String?
        var errorText: String?
    }

    /// The question after sign-in.
    struct DeviceConfirmation {
        var clientName: String
        var deviceName: String?
        var scopes: [String]
        /// The signed-in account's email address or username, when known.
        var account: String?
        /// The user code's digest (the sign-in's `state`) and the sign-in's code.
        var state: String
        var code: String
        var csrfToken: String
        var uiLocales: String?
    }

    func deviceCodeEntry(_ form: DeviceCodeEntry, locales: [String], status: HTTPResponse.Status = .ok) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        var context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales), "dir": direction(for: locales),
            "title": t("device.title"), "csrf_token": form.csrfToken,
            "entry": [
                "body": t("device.enter_body"), "code_label": t("device.code_label"), "continue": t("device.continue"),
                "user_code": form.userCode,
            ] as [String: Any],
        ]
        if let uiLocales = form.uiLocales { context["ui_locales"] = uiLocales }
        if let error = form.errorText { context["error"] = error }
        return html(library.render(context, withTemplate: DeviceVerificationTemplate.name) ?? "", status: status)
    }

    func deviceConfirmation(_ page: DeviceConfirmation, locales: [String]) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        var confirm: [String: Any] = [
            "body": localizer.string("device.confirm_body", locales: locales, arguments: ["client": page.clientName]),
            "scopes_label": t("device.confirm_scopes"), "scopes": page.scopes.map { ["name": $0] },
            "warning": t("device.confirm_warning"), "approve": t("device.approve"), "deny": t("device.deny"),
        ]
        if let name = page.deviceName {
            confirm["device_name"] = localizer.string("device.confirm_device_name", locales: locales, arguments: ["name": name])
        }
        if let account = page.account {
            confirm["account"] = localizer.string("device.confirm_account", locales: locales, arguments: ["user": account])
        }
        var context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales), "dir": direction(for: locales),
            "title": t("device.confirm_title"), "csrf_token": page.csrfToken, "state": page.state, "code": page.code,
            "confirm": confirm,
        ]
        if let uiLocales = page.uiLocales { context["ui_locales"] = uiLocales }
        return html(library.render(context, withTemplate: DeviceVerificationTemplate.name) ?? "", status: .ok)
    }
}
