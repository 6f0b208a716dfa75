import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The device verification page, `/device` (RFC 8628 §3.3), in four steps:
///
/// 1. `GET /device` shows the code form, filled in from `verification_uri_complete`'s
///    `user_code`; nothing is approved by opening the link (§5.4).
/// 2. `POST /device` finds the pending request (wrong codes counted, §5.1,
///    ``UserCodeThrottle``), pushes the page's own sign-in for the device's client
///    (``DeviceAuthorizations/signInParameters(for:uiLocales:)``) and sends the browser to
///    `/authorize`: the hosted login with password, passkey, second factor or a federation
///    provider, or the browser's session.
/// 3. `GET /device/callback` receives the sign-in's code and asks the user to allow or deny the
///    device, naming the app, the device and the scopes.
/// 4. `POST /device/decision` redeems that code and records the answer; the device's next poll
///    gets its tokens or `access_denied`.
struct DeviceVerificationPage: Sendable {
    let provider: Provider
    let pages: HostedPages

    private var requests: DeviceAuthorizations { provider.deviceAuthorizations }

    /// Step 1.
    func show(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let query = FormRequest.query(of: request) ?? [:]
        let typed = query[DeviceAuthorization.userCodeParameter] ?? ""
        let shown = UserCode(typed: typed)?.description ?? String(typed.prefix(64))
        return entry(request, userCode: shown, uiLocales: query[OAuthParameter.uiLocales], errorText: nil)
    }

    /// Step 2.
    func submit(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form: [String: String]
        switch try await pages.form(of: request, context: context, backLink: Self.backLink) {
        case .form(let submitted): form = submitted
        case .refused(let page): return page
        }
        let typed = form[DeviceAuthorization.userCodeParameter] ?? ""
        let uiLocales = form[OAuthParameter.uiLocales]
        let locales = LocalePreference.from(request: request, uiLocales: uiLocales)
        let shown = String(typed.prefix(64))
        switch try await requests.lookUp(typed: typed, origin: RequestOrigin(context)) {
        case .malformed:
            context.annotations.record(outcome: "user_code_malformed")
            return entry(request, userCode: shown, uiLocales: uiLocales, errorText: text("device.code_malformed", locales), status: .badRequest)
        case .unknown:
            context.annotations.record(outcome: "user_code_unknown")
            return entry(request, userCode: shown, uiLocales: uiLocales, errorText: text("device.code_unknown", locales), status: .badRequest)
        case .throttled(let retryAfter, let lock):
            context.annotations.record(outcome: "user_code_throttled")
            provider.audit.record(.userCodeThrottled, reason: lock.rawValue, origin: RequestOrigin(context))
            let message = provider.localizer.string(
                "device.code_throttled", locales: locales, arguments: ["seconds": String(retryAfter)])
            var response = entry(request, userCode: shown, uiLocales: uiLocales, errorText: message, status: .tooManyRequests)
            response.headers[.retryAfter] = String(retryAfter)
            return response
        case .pending(let record, let client):
            context.annotations.record(clientID: client.clientID)
            let pushed: PushedAuthorizationResponse
            do {
                pushed = try await provider.pushedRequests.push(
                    requests.signInParameters(for: record, uiLocales: uiLocales), client: client)
            } catch {
                return pages.errorPage(error.code, error.description, request: request, context: context, uiLocales: uiLocales)
            }
            context.annotations.record(outcome: "device_sign_in")
            return AuthorizationResponder.redirect(
                to: "/authorize",
                parameters: [(OAuthParameter.clientID, client.clientID), (OAuthParameter.requestURI, pushed.requestURI)])
        }
    }

    /// Step 3: the sign-in's answer (RFC 6749 §4.1.2, or §4.1.2.1 when it failed).
    func callback(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let query = FormRequest.query(of: request) ?? [:]
        guard let state = query[OAuthParameter.state], state.utf8.count <= 64,
            let record = try await requests.pendingRecord(userCodeDigest: state),
            let client = try await provider.store.client(id: record.clientID)
        else { return expired(request, context: context) }
        context.annotations.record(clientID: client.clientID)
        guard let code = query[OAuthParameter.code], !code.isEmpty, code.utf8.count <= 256 else {
            // The sign-in was refused or abandoned (e.g. access_denied from a provider).
            let error = query[OAuthParameter.error]
            let failed = APIErrorCode.allCases.first { $0.error == error } ?? .accessDenied
            return pages.errorPage(
                failed, "The device's sign-in ended without a code.", request: request, context: context,
                backLink: Self.backLink)
        }
        let csrf = pages.csrf.token(for: request)
        let resolver = BrowserSessionResolver(store: provider.store, cookies: pages.cookies, now: provider.now)
        var account: String?
        if let session = try await resolver.current(request), let user = try await provider.store.user(id: session.authentication.userID) {
            account = user.email.isEmpty ? user.username : user.email
        }
        context.annotations.record(outcome: "device_confirmation")
        var response = pages.renderer.deviceConfirmation(
            PageRenderer.DeviceConfirmation(
                clientName: client.name, deviceName: record.deviceName, scopes: ScopeList.parse(record.scope),
                account: account, state: state, code: code, csrfToken: csrf.value, uiLocales: query[OAuthParameter.uiLocales]),
            locales: LocalePreference.from(request: request, uiLocales: query[OAuthParameter.uiLocales]))
        if let cookie = pages.csrf.setCookie(csrf) { response.headers.append(cookie) }
        return response
    }

    /// Step 4.
    func decide(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form: [String: String]
        switch try await pages.form(of: request, context: context, backLink: Self.backLink) {
        case .form(let submitted): form = submitted
        case .refused(let page): return page
        }
        let locales = LocalePreference.from(request: request, uiLocales: form[OAuthParameter.uiLocales])
        let approve: Bool
        switch form["decision"] {
        case "approve": approve = true
        case "deny": approve = false
        default:
            return pages.errorPage(
                .invalidRequest, "decision must be approve or deny.", request: request, context: context)
        }
        guard let state = form[OAuthParameter.state], state.utf8.count <= 64,
            try await requests.decide(
                approve: approve, userCodeDigest: state, code: form[OAuthParameter.code] ?? "",
                origin: RequestOrigin(context), audit: provider.audit) != nil
        else { return expired(request, context: context) }
        context.annotations.record(outcome: approve ? "device_approved" : "device_denied")
        return approve
            ? pages.renderer.message(titleKey: "device.approved_title", bodyKey: "device.approved_body", locales: locales)
            : pages.renderer.message(titleKey: "device.denied_title", bodyKey: "device.denied_body", locales: locales)
    }

    // MARK: Parts

    private func entry(
        _ request: Request, userCode: String, uiLocales: String?, errorText: String?, status: HTTPResponse.Status = .ok
    ) -> Response {
        let csrf = pages.csrf.token(for: request)
        var response = pages.renderer.deviceCodeEntry(
            PageRenderer.DeviceCodeEntry(userCode: userCode, csrfToken: csrf.value, uiLocales: uiLocales, errorText: errorText),
            locales: LocalePreference.from(request: request, uiLocales: uiLocales), status: status)
        if let cookie = pages.csrf.setCookie(csrf) { response.headers.append(cookie) }
        return response
    }

    private func text(_ key: String, _ locales: [String]) -> String { provider.localizer.string(key, locales: locales) }

    /// From an error page back to the code form.
    private static let backLink = (href: DeviceAuthorizations.pagePath, labelKey: "device.title")

    /// The request expired, was answered already, or the sign-in's code is spent.
    private func expired(_ request: Request, context: SesameRequestContext) -> Response {
        context.annotations.record(outcome: "device_request_gone")
        return pages.errorPage(
            .expiredToken, "The device authorization request is no longer pending.", request: request, context: context,
            messageKey: "device.expired", backLink: Self.backLink)
    }
}
