import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The hosted email confirmation page, `GET`/`POST /verify-email`: the address and the 6-digit
/// code of an `email_verification` message (sent at sign-up), redeemed by the same rules as
/// `POST /api/signup/confirm` (``AccountSelfService``, five attempts per code). "Send a new
/// code" answers the same whether or not the address needs one.
///
/// When the page carries the authorization request the user came from, a confirmed sign-up
/// continues that sign-in (second factor if the client requires one, then the code is sent to
/// the client's redirect URI): the user proved the password at sign-up and the address now.
struct EmailVerificationPage: Sendable {
    let pages: HostedAccountPages
    let provider: Provider
    /// Where a confirmed sign-up goes on to when it came from a sign-in (``SignInCompletion``).
    let completion: SignInCompletion
    static let resendField = "resend"

    func get(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let query = pages.query(of: request)
        let carried = await pages.carried(in: query, request: request)
        return pages.render(
            Self.codeForm(email: query["email"] ?? "", noticeKey: "verify.intro", emailEditable: true),
            carried: carried, request: request)
    }

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await pages.submit(
            request, context: context, refusedOutcome: "email_verification_refused",
            refusedForm: {
                Self.codeForm(
                    email: HostedAccountPages.value("email", in: $0), noticeKey: nil, emailEditable: $0["email_editable"] != nil)
            }
        ) { form, carried in
            let email = HostedAccountPages.value("email", in: form)
            let emailEditable = form["email_editable"] != nil
            let service = provider.accounts
            if form[Self.resendField] != nil {
                try await service.admitMailRequest(from: ClientAddressKey.of(context.clientAddress))
                try await service.resendVerification(to: email, locales: pages.locales(request, carried))
                context.annotations.record(outcome: "email_verification_resent")
                return pages.render(
                    Self.codeForm(email: email, noticeKey: "verify.resent", emailEditable: emailEditable),
                    carried: carried, request: request)
            }
            let user = try await service.confirmEmail(
                email, code: form["code"] ?? "", validation: pages.validation(request, carried))
            context.annotations.record(outcome: "email_verified")
            if let carried {
                return try await completion.passwordAccepted(
                    for: user, held: carried, request: request, context: context)
            }
            return pages.render(
                PageRenderer.AccountForm(titleKey: "verify.done.title", noticeKey: "verify.done.body"),
                carried: nil, request: request)
        }
    }

    /// The code form; the address is a field on the stand-alone page and hidden after sign-up.
    static func codeForm(email: String, noticeKey: String?, emailEditable: Bool = false) -> PageRenderer.AccountForm {
        var fields: [PageRenderer.AccountField] = []
        var hidden: [(name: String, value: String)] = []
        if emailEditable {
            fields.append(.init(name: "email", labelKey: "account.email", kind: .email, value: email, autocomplete: "email"))
            hidden.append((name: "email_editable", value: "1"))
        } else {
            hidden.append((name: "email", value: email))
        }
        fields.append(.init(name: "code", labelKey: "mfa.code_label", kind: .code, autocomplete: "one-time-code"))
        return PageRenderer.AccountForm(
            titleKey: "verify.title", noticeKey: noticeKey, email: email, action: "/verify-email", fields: fields,
            hiddenFields: hidden, submitKey: "verify.submit", secondary: (key: "verify.resend", name: resendField))
    }
}
