import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// What the hosted account pages share (``SignUpPage``, ``EmailVerificationPage``,
/// ``PasswordResetPage``): the authorization request the user came from, the CSRF check, and
/// how a failure of ``AccountSelfService`` is shown in the form.
///
/// The login page links here with the reference of the authorization request held for this
/// browser (``PendingAuthorizations``); the pages carry that reference in a hidden field, so a
/// sign-up can end where the sign-in would have (at the client's registered redirect URI) and
/// "Back to sign in" returns to the same request. Nothing of the request itself travels through
/// the browser. Without a held request the pages work on their own.
struct HostedAccountPages: Sendable {
    let provider: Provider
    let pages: HostedPages
    /// Proof-of-work challenges for sign-ups and reset requests that look automated; `nil`: none.
    let challenges: ChallengeGate?

    /// The sign-in a page belongs to: the request held for this browser under the reference in
    /// `parameters` (a page's query or form), when there is one and it is still held; anything
    /// else is ignored and the page works on its own.
    typealias Carried = HeldAuthorization

    func carried(in parameters: [String: String], request: Request) async -> Carried? {
        try? await provider.pendingAuthorizations.resume(
            reference: parameters[PendingAuthorizations.referenceField],
            browserBinding: pages.csrf.browserBinding(of: request))
    }

    /// The query of a GET (a malformed one counts as empty).
    func query(of request: Request) -> [String: String] { FormRequest.query(of: request) ?? [:] }

    /// The languages of a page: the carried `ui_locales`, then `Accept-Language`.
    func locales(_ request: Request, _ carried: Carried?) -> [String] {
        LocalePreference.from(request: request, uiLocales: carried?.authorization.uiLocales)
    }

    /// Renders `form` with the CSRF token (setting the cookie when new), the carried request in
    /// hidden fields, and the CSP form target of its redirect URI.
    func render(
        _ form: PageRenderer.AccountForm, carried: Carried?, request: Request, status: HTTPResponse.Status = .ok,
        csrf: CSRFProtection.Token? = nil
    ) -> Response {
        let csrf = csrf ?? pages.csrf.token(for: request)
        var form = form
        form.csrfToken = csrf.value
        form.hiddenFields = (carried.map(LoginPage.hiddenFields) ?? []) + form.hiddenFields
        form.redirectURI = carried?.authorization.redirectURI
        form.minimumPasswordLength = validation(request, carried).passwordPolicy.minimumLength
        // A way on from every page: back to the sign-in it came from, or without one (a bare
        // /signup or /password-reset) to the server's home page.
        form.links.append(
            carried.map { (labelKey: "common.back_to_sign_in", href: LoginPage.href($0)) }
                ?? (labelKey: "common.account_home", href: HostedPageRoutes.home))
        var response = pages.renderer.account(form, locales: locales(request, carried), status: status)
        if let cookie = pages.csrf.setCookie(csrf) { response.headers.append(cookie) }
        return response
    }

    /// Handles a page's POST: the form (CSRF-checked, else the error page) and the request it
    /// carries go to `handle`; an ``EndpointFailure`` it throws is shown on the page
    /// `refusedForm` builds from what was typed, with its messages, the status the JSON API
    /// would answer and `Retry-After`, and recorded as `refusedOutcome`.
    func submit(
        _ request: Request, context: SesameRequestContext, refusedOutcome: String,
        refusedForm: ([String: String]) -> PageRenderer.AccountForm,
        _ handle: (_ form: [String: String], _ carried: Carried?) async throws -> Response
    ) async throws -> Response {
        let form: [String: String]
        switch try await pages.form(of: request, context: context) {
        case .form(let parameters): form = parameters
        case .refused(let errorPage): return errorPage
        }
        let carried = await carried(in: form, request: request)
        if let carried { context.annotations.record(clientID: carried.client.clientID) }
        do {
            return try await handle(form, carried)
        } catch let failure as any APIErrorRendering where failure is EndpointFailure || failure is ProviderFailure {
            context.annotations.record(outcome: refusedOutcome)
            let shown = Self.failure(failure)
            var page = refusedForm(form)
            page.failure = (shown.messageKey, shown.fieldMessages)
            return Self.addingRetryAfter(
                render(page, carried: carried, request: request, status: shown.status), from: failure)
        }
    }

    /// A form being shown, with a challenge when its submission to `endpoint` would be
    /// challenged now (the browser solves it while the user types; ``ChallengeGate``).
    func renderChallenged(
        _ form: PageRenderer.AccountForm, endpoint: ChallengePolicy.Endpoint, carried: Carried?, request: Request,
        context: SesameRequestContext
    ) -> Response {
        var form = form
        let csrf = pages.csrf.token(for: request)
        form.challenge = challenges?.pageChallenge(
            endpoint, subject: csrf.value, clientID: carried?.client.clientID, context: context)
        return render(form, carried: carried, request: request, csrf: csrf)
    }

    /// Asks the ``ChallengeGate`` about a submission to `endpoint`: `nil` when it may do its
    /// work, otherwise `page` again (HTTP 429) with a new challenge and what happened.
    func admit(
        _ endpoint: ChallengePolicy.Endpoint, form: [String: String], page: PageRenderer.AccountForm, carried: Carried?,
        request: Request, context: SesameRequestContext
    ) async throws -> Response? {
        guard let gate = challenges else { return nil }
        let admission = try await gate.admit(
            endpoint, surface: .hostedForm, subject: form[CSRFProtection.fieldName] ?? "", clientID: carried?.client.clientID,
            solution: ChallengeGate.solution(request, form: form), context: context)
        guard case .challenged(let challenge, let refusal) = admission else { return nil }
        var page = page
        page.challenge = challenge
        page.failure = (ChallengeGate.errorCode(refusal: refusal).messageKey, [])
        return render(page, carried: carried, request: request, status: .tooManyRequests)
    }

    /// A form value as typed, trimmed.
    static func value(_ name: String, in form: [String: String]) -> String {
        (form[name] ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// How a refused submission is shown: the code's message and each field's, with the
    /// status the JSON API would answer (and `Retry-After` when it says when to retry).
    static func failure(_ error: any APIErrorRendering) -> (
        messageKey: String, fieldMessages: [(field: String, message: String)], status: HTTPResponse.Status
    ) {
        let failure = error.failure
        let fields = (failure.details ?? []).map { (field: $0.field, message: $0.message) }
        let key = fields.isEmpty ? failure.code.messageKey : "page.error"
        return (key, fields, error.responseStatus)
    }

    /// `response` with the `Retry-After` of `failure`, if it has one.
    static func addingRetryAfter(_ response: Response, from error: any APIErrorRendering) -> Response {
        guard let retryAfter = error.failure.retryAfter else { return response }
        var response = response
        response.headers[.retryAfter] = String(retryAfter)
        return response
    }

    /// The validation context of a page's submission, in the page's languages.
    func validation(_ request: Request, _ carried: Carried?) -> AccountValidation {
        AccountValidation(localizer: provider.localizer, locales: locales(request, carried))
    }
}
