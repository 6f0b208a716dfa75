import Foundation
import Hummingbird
import Logging
import Mustache
import SesameProtocol

/// Renders the hosted HTML pages from the Mustache templates in this folder, localized
/// through a ``Localizer``, with ``SecurityHeaders`` on every response.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    let localizer: any Localizer

    init(localizer: any Localizer) throws {
        var library = MustacheLibrary()
        try library.register(LoginTemplate.source, named: LoginTemplate.name)
        try library.register(MessageTemplate.source, named: MessageTemplate.name)
        try library.register(MFATemplate.source, named: MFATemplate.name)
        try library.register(LogoutConfirmationTemplate.source, named: LogoutConfirmationTemplate.name)
        try library.register(AccountFormTemplate.source, named: AccountFormTemplate.name)
        try library.register(AccountPasskeysTemplate.source, named: AccountPasskeysTemplate.name)
        try library.register(DeviceVerificationTemplate.source, named: DeviceVerificationTemplate.name)
        self.library = library
        self.localizer = localizer
    }

    /// The content of the login form.
    struct LoginForm {
        var clientName: String
        /// The authorization request parameters, carried as hidden fields.
        var hiddenFields: [(name: String, value: String)]
        var csrfToken: String
        var username: String
        var errorKey: String?
        /// The registered redirect URI the sign-in ends at (``ContentSecurityPolicy``).
        var redirectURI: String
        /// The sign-up and password-reset pages, carrying the same authorization request.
        var signUpHref = "/signup"
        var passwordResetHref = "/password-reset"
        /// An abuse challenge the browser solves before the form is accepted (``ChallengeBlock``).
        var challenge: ProofOfWorkChallenge?
        /// "Continue with …" links: a provider's display name and where its sign-in starts.
        var providers: [(name: String, href: String)] = []
    }

    func login(_ form: LoginForm, locales: [String], status: HTTPResponse.Status = .ok) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        let sentence = t("login.heading")
        let split = sentence.range(of: "{client}")
        let heading = (
            before: split.map { String(sentence[..<$0.lowerBound]) } ?? sentence,
            after: split.map { String(sentence[$0.upperBound...]) } ?? ""
        )
        var context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales),
            "dir": direction(for: locales),
            "title": t("login.title"),
            // The client's name in its own direction (`<bdi>`): a Latin name inside an Arabic
            // sentence would otherwise be reordered around its punctuation.
            "heading_before": heading.before,
            "client_name": form.clientName,
            "heading_after": heading.after,
            "csrf_token": form.csrfToken,
            "hidden": form.hiddenFields.map { ["name": $0.name, "value": $0.value] },
            "username_label": t("login.username"),
            "username": form.username,
            "password_label": t("login.password"),
            "submit": t("login.submit"),
            "create_account": t("login.create_account"),
            "forgot_password": t("login.forgot_password"),
            "signup_href": form.signUpHref,
            "password_reset_href": form.passwordResetHref,
            "providers": form.providers.map {
                ["href": $0.href, "label": t("login.continue_with").replacingOccurrences(of: "{provider}", with: $0.name)]
            },
        ]
        if let errorKey = form.errorKey { context["error"] = t(errorKey) }
        var policy = ContentSecurityPolicy.allowingRedirects(to: [form.redirectURI])
        // Passkeys (``PasskeyBlock``): this origin's script, and its fetch of the options.
        context["passkey"] = ["label": t("login.passkey")]
        policy.allowsOwnScripts = true
        policy.allowsOwnConnections = true
        if let challenge = form.challenge {
            context["challenge"] = challengeContext(challenge, locales: locales)
        }
        return html(library.render(context, withTemplate: LoginTemplate.name) ?? "", status: status, policy: policy)
    }

    /// The account's passkeys page (``AccountPasskeysTemplate``).
    struct AccountPasskeys {
        var csrfToken: String
        var passkeys: [(name: String, kind: String)]
        var noticeKey: String?
        var errorKey: String?
    }

    func accountPasskeys(_ page: AccountPasskeys, locales: [String], status: HTTPResponse.Status) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        var context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales), "dir": direction(for: locales), "title": t("passkeys.title"),
            "csrf_token": page.csrfToken, "add_label": t("passkeys.add"), "none": t("passkeys.none"),
            "unsupported": t("passkeys.unsupported"),
        ]
        if !page.passkeys.isEmpty {
            context["passkeys"] = ["items": page.passkeys.map { ["name": $0.name, "kind": t("passkeys.kind." + $0.kind)] }]
        }
        if let noticeKey = page.noticeKey { context["notice"] = t(noticeKey) }
        if let errorKey = page.errorKey { context["error"] = t(errorKey) }
        var policy = ContentSecurityPolicy.strict
        policy.allowsOwnScripts = true
        policy.allowsOwnConnections = true
        return html(library.render(context, withTemplate: AccountPasskeysTemplate.name) ?? "", status: status, policy: policy)
    }

    /// The `challenge` section of a form (``ChallengeBlock``).
    func challengeContext(_ challenge: ProofOfWorkChallenge, locales: [String]) -> [String: Any] {
        [
            "token": challenge.token, "kind": challenge.kind.rawValue, "seed": challenge.seed,
            "difficulty": String(challenge.difficulty), "working": localizer.string("challenge.working", locales: locales),
            "noscript": localizer.string("challenge.noscript", locales: locales),
        ]
    }

    /// An error page for a failure that must not redirect (unknown client, bad redirect URI,
    /// CSRF failure). Shows the localized message and the `error_id` to quote to support.
    /// `messageKey` replaces the code's message (and then the "start signing in again" help,
    /// which only fits sign-in failures, is left out).
    func error(
        _ code: APIErrorCode, errorID: String, locales: [String],
        status: HTTPResponse.Status? = nil, messageKey: String? = nil, backLink: (href: String, labelKey: String)? = nil
    ) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        var context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales),
            "dir": direction(for: locales),
            "title": t("error.title"),
            "message": t(messageKey ?? code.messageKey),
            "reference_label": t("error.reference"),
            "reference": errorID,
        ]
        if messageKey == nil { context["help"] = t("error.help") }
        if let backLink {
            context["back_link"] = backLink.href
            context["back_label"] = t(backLink.labelKey)
        }
        return html(
            library.render(context, withTemplate: MessageTemplate.name) ?? "",
            status: status ?? HTTPResponse.Status(code: code.httpStatus))
    }

    /// A hosted page refused by a rate limit (HTTP 429): how long to wait, and for a `GET` a
    /// link that asks again (`retry`, the request's own path and query).
    func rateLimited(retryAfter seconds: Int, retry: String?, errorID: String, locales: [String]) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        var context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales),
            "dir": direction(for: locales),
            "title": t("rate_limit.page_title"),
            "message": localizer.string("rate_limit.page_body", locales: locales, arguments: ["seconds": String(seconds)]),
            "reference_label": t("error.reference"),
            "reference": errorID,
        ]
        if let retry {
            context["back_link"] = retry
            context["back_label"] = t("rate_limit.retry")
        }
        return html(library.render(context, withTemplate: MessageTemplate.name) ?? "", status: .tooManyRequests)
    }

    /// The server's home page (`GET /`): signing in happens from an app; from here a person can
    /// create an account, reset a password or manage passkeys. The pages that have no app to
    /// return to link here (``HostedPageRoutes/home``).
    func home(locales: [String]) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        let links = [("home.sign_up", "/signup"), ("home.password_reset", "/password-reset"), ("home.passkeys", "/account/passkeys")]
        let context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales),
            "dir": direction(for: locales),
            "title": t("home.title"),
            "message": t("home.body"),
            "links": ["items": links.map { ["label": t($0.0), "href": $0.1] }],
        ]
        return html(library.render(context, withTemplate: MessageTemplate.name) ?? "", status: .ok)
    }

    /// A simple informational page (signed out, sign-up and password-reset placeholders).
    func message(titleKey: String, bodyKey: String, locales: [String]) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        let context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales),
            "dir": direction(for: locales),
            "title": t(titleKey),
            "message": t(bodyKey),
        ]
        return html(library.render(context, withTemplate: MessageTemplate.name) ?? "", status: .ok)
    }

    /// A page that goes on to `location` at once (`<meta http-equiv="refresh">`, with a link):
    /// the end of a sign-in that came back from another origin's form (``FederationBrokerEndpoint``).
    /// A 303 there would be a redirect in the chain of that origin's form submission, which its
    /// CSP `form-action` (CSP3 §6.4.1) may not allow; a new navigation from a page of ours is not.
    func continuing(to location: String, locales: [String]) -> Response {
        let t = { (key: String) in localizer.string(key, locales: locales) }
        let context: [String: Any] = [
            "lang": localizer.resolvedLocale(for: locales), "dir": direction(for: locales), "title": t("continue.title"),
            "message": t("continue.body"), "refresh": location, "continue_label": t("continue.link"),
        ]
        var response = html(library.render(context, withTemplate: MessageTemplate.name) ?? "", status: .ok)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The `dir` of the `<html>` element: `rtl` when `locales` resolve to a right-to-left
    /// locale (Arabic), else `ltr`.
    func direction(for locales: [String]) -> String {
        TextDirection.of(localizer.resolvedLocale(for: locales)).rawValue
    }

    /// An HTML response with ``SecurityHeaders``; `policy` names the registered URI a form on
    /// the page may end at, if any.
    func html(
        _ text: String, status: HTTPResponse.Status, policy: ContentSecurityPolicy = .strict
    ) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        SecurityHeaders.apply(to: &headers, policy: policy)
        return Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
