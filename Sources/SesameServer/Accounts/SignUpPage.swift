import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The hosted sign-up page, `GET`/`POST /signup` (linked from the login page): email, optional
/// name and password, checked by the same rules as `POST /api/signup` (``AccountSelfService``).
/// A new account gets an emailed code and the page asks for it (``EmailVerificationPage``);
/// a refused submission shows each field's message and keeps what was typed, except the
/// password.
struct SignUpPage: Sendable {
    let pages: HostedAccountPages
    let provider: Provider

    func get(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let carried = await pages.carried(in: pages.query(of: request), request: request)
        return pages.renderChallenged(Self.form(), endpoint: .signUp, carried: carried, request: request, context: context)
    }

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await pages.submit(
            request, context: context, refusedOutcome: "signup_refused",
            refusedForm: { Self.form(email: HostedAccountPages.value("email", in: $0), name: HostedAccountPages.value("name", in: $0)) }
        ) { form, carried in
            let name = HostedAccountPages.value("name", in: form)
            if let challenged = try await pages.admit(
                .signUp, form: form, page: Self.form(email: HostedAccountPages.value("email", in: form), name: name),
                carried: carried, request: request, context: context)
            {
                return challenged
            }
            let service = provider.accounts
            try await service.admitMailRequest(from: ClientAddressKey.of(context.clientAddress))
            let user = try await service.signUp(
                .init(
                    email: HostedAccountPages.value("email", in: form), password: form["password"] ?? "", username: nil,
                    profile: ProfileUpdate(name: name.isEmpty ? nil : name)),
                validation: pages.validation(request, carried))
            context.annotations.record(outcome: "signed_up")
            provider.audit.record(.accountCreated, context: context, userID: user.id)
            return pages.render(
                EmailVerificationPage.codeForm(email: user.email, noticeKey: "verify.sent"), carried: carried,
                request: request)
        }
    }

    static func form(email: String = "", name: String = "") -> PageRenderer.AccountForm {
        PageRenderer.AccountForm(
            titleKey: "signup.title", noticeKey: "signup.intro", action: "/signup",
            fields: [
                .init(name: "email", labelKey: "account.email", kind: .email, value: email, autocomplete: "email"),
                .init(
                    name: "name", labelKey: "account.name", kind: .text, value: name, autocomplete: "name",
                    required: false),
                .init(
                    name: "password", labelKey: "login.password", kind: .password, autocomplete: "new-password",
                    hintKey: "account.password_hint"),
            ],
            submitKey: "signup.submit")
    }
}
