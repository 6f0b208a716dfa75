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
    let provider: Provider

    func get(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let carried = await pages.carried(in: pages.query(of: request), request: request)
        return pages.renderChallenged(
            Self.requestForm(), endpoint: .passwordReset, carried: carried, request: request, context: context)
    }

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await pages.submit(
            request, context: context, refusedOutcome: "password_reset_refused",
            refusedForm: { Self.requestForm(email: HostedAccountPages.value("email", in: $0)) }
        ) { form, carried in
            let email = HostedAccountPages.value("email", in: form)
            let validation = pages.validation(request, carried)
            if let violation = validation.email(EmailAddress.canonical(email), field: "email") { throw validation.failure([violation]) }
            if let challenged = try await pages.admit(
                .passwordReset, form: form, page: Self.requestForm(email: email), carried: carried, request: request,
                context: context)
            {
                return challenged
            }
            let service = provider.accounts
            try await service.admitMailRequest(from: ClientAddressKey.of(context.clientAddress))
            try await service.requestPasswordReset(email, locales: pages.locales(request, carried))
            context.annotations.record(outcome: "password_reset_requested")
            provider.audit.record(.passwordResetRequested, context: context)
            return pages.render(
                Self.confirmForm(email: email, noticeKey: "password_reset.sent"), carried: carried, request: request)
        }
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await pages.submit(
            request, context: context, refusedOutcome: "password_reset_refused",
            refusedForm: { Self.confirmForm(email: HostedAccountPages.value("email", in: $0), noticeKey: nil) }
        ) { form, carried in
            let user = try await provider.accounts.resetPassword(
                HostedAccountPages.value("email", in: form), code: form["code"] ?? "",
                newPassword: form["new_password"] ?? "", validation: pages.validation(request, carried))
            context.annotations.record(outcome: "password_reset")
            provider.audit.record(.passwordReset, context: context, userID: user.id)
            // The user's browser sessions ended with the reset; this browser's cookie goes too.
            var response = pages.render(
                PageRenderer.AccountForm(titleKey: "password_reset.done.title", noticeKey: "password_reset.done.body"),
                carried: carried, request: request)
            response.headers.append(HTTPField(name: .setCookie, value: pages.pages.cookies.clearSession()))
            return response
        }
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
