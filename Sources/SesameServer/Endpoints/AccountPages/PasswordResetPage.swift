import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The hosted password reset, linked from the login page ("Forgot your password?"), by the same
/// rules as `POST /api/password/reset` and `…/confirm` (``AccountSelfService``):
/// 1. `GET /password-reset`: the address; `POST /password-reset` sends a code when it belongs to
///    an account and answers the same either way (no account enumeration);
/// 2. the code and the new password, `POST /password-reset/confirm`: the password is changed,
///    every refresh token and browser session of the user ends, and the page says so with a
///    link back to the sign-in the user came from.
struct PasswordResetPage: Sendable {
    let pages: HostedAccountPages

    init(services: ServerServices) { pages = HostedAccountPages(services: services) }

    func get(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let carried = await pages.carried(in: pages.query(of: request))
        return pages.render(Self.requestForm(), carried: carried, request: request)
    }

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form: [String: String]
        switch try await pages.form(of: request, context: context) {
        case .form(let parameters): form = parameters
        case .refused(let errorPage): return errorPage
        }
        let carried = await pages.carried(in: form)
        let email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        let validation = pages.validation(request, carried)
        if let violation = validation.email(email.lowercased(), field: "email") {
            var page = Self.requestForm(email: email)
            page.failure = ("page.error", validation.details([violation]).map { (field: $0.field, message: $0.message) })
            return pages.render(page, carried: carried, request: request, status: .badRequest)
        }
        do {
            try AccountSelfService(services: pages.services).admitMailRequest(context)
            try await AccountSelfService(services: pages.services)
                .requestPasswordReset(email, locales: pages.locales(request, carried))
        } catch let failure as EndpointFailure {
            let shown = HostedAccountPages.failure(failure)
            var page = Self.requestForm(email: email)
            page.failure = (shown.messageKey, shown.fieldMessages)
            return HostedAccountPages.addingRetryAfter(
                pages.render(page, carried: carried, request: request, status: shown.status), from: failure)
        }
        context.annotations.record(outcome: "password_reset_requested")
        return pages.render(Self.confirmForm(email: email, noticeKey: "password_reset.sent"), carried: carried, request: request)
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form: [String: String]
        switch try await pages.form(of: request, context: context) {
        case .form(let parameters): form = parameters
        case .refused(let errorPage): return errorPage
        }
        let carried = await pages.carried(in: form)
        let email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        do {
            _ = try await AccountSelfService(services: pages.services).resetPassword(
                email, code: form["code"] ?? "", newPassword: form["new_password"] ?? "",
                validation: pages.validation(request, carried))
        } catch let failure as EndpointFailure {
            context.annotations.record(outcome: "password_reset_refused")
            let shown = HostedAccountPages.failure(failure)
            var page = Self.confirmForm(email: email, noticeKey: nil)
            page.failure = (shown.messageKey, shown.fieldMessages)
            return HostedAccountPages.addingRetryAfter(
                pages.render(page, carried: carried, request: request, status: shown.status), from: failure)
        }
        context.annotations.record(outcome: "password_reset")
        // The user's browser sessions ended with the reset; this browser's cookie goes too.
        var response = pages.render(
            PageRenderer.AccountForm(titleKey: "password_reset.done.title", noticeKey: "password_reset.done.body"),
            carried: carried, request: request)
        response.headers.append(HTTPField(name: .setCookie, value: pages.services.cookies.clearSession()))
        return response
    }

    static func requestForm(email: String = "") -> PageRenderer.AccountForm {
        PageRenderer.AccountForm(
            titleKey: "password_reset.title", noticeKey: "password_reset.intro", action: "/password-reset",
            fields: [.init(name: "email", labelKey: "account.email", kind: .email, value: email, autocomplete: "email")],
            submitKey: "password_reset.submit")
    }

    static func confirmForm(email: String, noticeKey: String?) -> PageRenderer.AccountForm {
        PageRenderer.AccountForm(
            titleKey: "password_reset.title", noticeKey: noticeKey, email: email, action: "/password-reset/confirm",
            fields: [
                .init(name: "code", labelKey: "mfa.code_label", kind: .code, autocomplete: "one-time-code"),
                .init(
                    name: "new_password", labelKey: "password_reset.new_password", kind: .password,
                    autocomplete: "new-password", hintKey: "account.password_hint"),
            ],
            hiddenFields: [(name: "email", value: email)], submitKey: "password_reset.confirm")
    }
}
