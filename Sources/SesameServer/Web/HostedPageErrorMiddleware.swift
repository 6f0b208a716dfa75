import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SesameProtocol

/// On a hosted page (``HostedPageRoutes``) a refusal that comes before the page's own code
/// runs is read by a person, not an app: a rate limit is the localized page that says how long
/// to wait and links to try again (with `Retry-After` and the `RateLimit` fields kept), and
/// the data store being down is the localized error page (503, `Retry-After`). Everything else
/// goes on to ``APIErrorMiddleware`` as before. Runs inside it, outside the rate limits.
struct HostedPageErrorMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    let pages: PageRenderer
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard HostedPageRoutes.contains(context.endpointPath) else { return try await next(request, context) }
        do {
            return try await next(request, context)
        } catch let error as any APIErrorRendering where HostedPageRoutes.showsAsPage(error.failure.code) {
            return page(error, request: request, context: context)
        } catch StoreError.unavailable(let reason) {
            logger.error(
                "the data store is unavailable", metadata: ["request_id": .string(context.id), "reason": .string(reason)])
            return page(APIErrorMiddleware.unavailable(), request: request, context: context)
        }
    }

    private func page(_ error: any APIErrorRendering, request: Request, context: Context) -> Response {
        let failure = error.failure
        let errorID = SecureRandom.uuid()
        context.annotations.record(errorID: errorID)
        context.annotations.record(outcome: failure.code.error)
        let locales = LocalePreference.from(request: request, uiLocales: failure.uiLocales)
        var response: Response
        if failure.code == .rateLimited, let retryAfter = failure.retryAfter {
            response = pages.rateLimited(
                retryAfter: retryAfter, retry: request.method == .get ? request.uri.description : nil, errorID: errorID,
                locales: locales)
        } else {
            response = pages.error(
                failure.code, errorID: errorID, locales: locales,
                status: error.responseStatus)
        }
        for field in error.responseHeaders where response.headers[field.name] == nil { response.headers.append(field) }
        if let retryAfter = failure.retryAfter, response.headers[.retryAfter] == nil {
            response.headers[.retryAfter] = String(retryAfter)
        }
        return response
    }
}
