import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SesameProtocol

/// What every hosted page shares (the sign-in, the account pages, the passkeys page, the device
/// page, "Continue with …"): the renderer and its strings, the browser's cookies, the forms'
/// CSRF tokens, and the error page. Built once by the composition root.
struct HostedPages: Sendable {
    let renderer: PageRenderer
    let localizer: any Localizer
    let cookies: BrowserCookies
    let csrf: CSRFProtection
    let logger: Logger

    init(renderer: PageRenderer, localizer: any Localizer, cookies: BrowserCookies, csrf: CSRFProtection, logger: Logger) {
        self.renderer = renderer
        self.localizer = localizer
        self.cookies = cookies
        self.csrf = csrf
        self.logger = logger
    }

    /// An HTML error page with a fresh error id, which is also logged. `messageKey` replaces the
    /// code's localized message when the page must say more precisely what happened; `backLink`
    /// leads back to where the person was.
    func errorPage(
        _ code: APIErrorCode, _ description: String, request: Request,
        context: SesameRequestContext, uiLocales: String? = nil, messageKey: String? = nil,
        backLink: (href: String, labelKey: String)? = nil
    ) -> Response {
        let errorID = SecureRandom.uuid()
        context.annotations.record(outcome: code.error)
        context.annotations.record(errorID: errorID)
        logger.debug(
            "hosted page refused",
            metadata: [
                "request_id": .string(context.id), "error_id": .string(errorID),
                "error": .string(code.error), "error_description": .string(description),
            ])
        return renderer.error(
            code, errorID: errorID,
            locales: LocalePreference.from(request: request, uiLocales: uiLocales),
            status: code == .csrfFailed ? HTTPResponse.Status(code: code.httpStatus) : .badRequest,
            messageKey: messageKey, backLink: backLink)
    }

    /// A submitted form, or the page that refuses it.
    enum Submission {
        case form([String: String])
        case refused(Response)
    }

    /// The form of a POST, or the error page when it is not a form or fails the CSRF check;
    /// `backLink` leads from that page back to where the form was.
    func form(
        of request: Request, context: SesameRequestContext, backLink: (href: String, labelKey: String)? = nil
    ) async throws -> Submission {
        let form: [String: String]
        do {
            form = try await FormRequest.body(of: request, context: context)
        } catch let failure as EndpointFailure {
            return .refused(errorPage(failure.code, failure.description ?? "", request: request, context: context))
        }
        guard csrf.verify(request: request, form: form) else {
            return .refused(
                errorPage(
                    .csrfFailed, "The CSRF cookie and form field are missing or differ.", request: request,
                    context: context, uiLocales: form[OAuthParameter.uiLocales], backLink: backLink))
        }
        return .form(form)
    }

    /// Adds the CSRF cookie to `response` when `token` started a new pre-session.
    func settingCookie(_ token: CSRFProtection.Token, on response: Response) -> Response {
        guard let cookie = csrf.setCookie(token) else { return response }
        var response = response
        response.headers.append(cookie)
        return response
    }
}
