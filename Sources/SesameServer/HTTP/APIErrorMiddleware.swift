import Foundation
import Hummingbird
import Logging
import SesameProtocol

/// Turns every failure of a JSON endpoint into an ``APIError`` response with a fresh
/// `error_id`, the numeric `error_code`, `error_message_key` and a localized `error_user_msg`
/// (docs/errors.md). The error id is recorded for the request log line; the message never includes
/// request secrets. (On a hosted page a rate limit or an unavailable store is the HTML page of
/// ``HostedPageErrorMiddleware``, which runs inside this one.)
struct APIErrorMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    /// `Retry-After` of a 503 while the data store is unavailable.
    static let storeRetryAfter = 5
    let localizer: any Localizer
    let logger: Logger

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any APIErrorRendering {
            return respond(error, request: request, context: context)
        } catch StoreError.unavailable(let reason) {
            // The database is down or unreachable (RFC 6749 §4.1.2.1 `temporarily_unavailable`):
            // the request can be retried; the server recovers when the database is back.
            logger.error(
                "the data store is unavailable",
                metadata: ["request_id": .string(context.id), "reason": .string(reason)])
            return respond(
                Self.unavailable("The data store is unavailable; try again in a few seconds."), request: request,
                context: context)
        } catch let error as HTTPError {
            let code: APIErrorCode =
                switch error.status {
                case .notFound: .notFound
                case .methodNotAllowed: .methodNotAllowed
                case .contentTooLarge: .invalidRequest
                default: error.status.code >= 500 ? .serverError : .invalidRequest
                }
            let failure = EndpointFailure(code, error.body, status: error.status)
            return respond(failure, request: request, context: context)
        } catch is CancellationError {
            // The server is stopping and the request outlived `--shutdown-timeout`
            // (``ConnectionLimits/shutdownTimeout``): it was cancelled, and may be retried.
            logger.notice("request cancelled: the server is stopping", metadata: ["request_id": .string(context.id)])
            return respond(
                Self.unavailable("The server is restarting; try again in a few seconds."), request: request, context: context)
        } catch {
            // Unexpected: log the type only (an error's description could echo input).
            logger.error(
                "unexpected error",
                metadata: ["request_id": .string(context.id), "error_type": .string("\(type(of: error))")])
            return respond(EndpointFailure(.serverError), request: request, context: context)
        }
    }

    /// A 503 `temporarily_unavailable` the client may retry after ``storeRetryAfter`` seconds
    /// (here and on the hosted pages, ``HostedPageErrorMiddleware``).
    static func unavailable(_ description: String? = nil) -> EndpointFailure {
        var failure = EndpointFailure(.temporarilyUnavailable, description, status: .serviceUnavailable)
        failure.retryAfter = storeRetryAfter
        return failure
    }

    private func respond(_ error: any APIErrorRendering, request: Request, context: Context) -> Response {
        let failure = error.failure
        let errorID = SecureRandom.uuid()
        let locales = LocalePreference.from(request: request, uiLocales: failure.uiLocales)
        let body = Self.body(
            of: error, errorID: errorID,
            userMessage: localizer.string(failure.code.messageKey, locales: locales))
        context.annotations.record(errorID: errorID)
        context.annotations.record(outcome: failure.code.error)
        logger.debug(
            "request failed",
            metadata: [
                "request_id": .string(context.id), "error_id": .string(errorID),
                "error": .string(failure.code.error),
                "error_description": .string(body.errorDescription ?? ""),
            ])
        var response = JSONResponse.make(body, status: error.responseStatus, noStore: true)
        for field in error.responseHeaders { response.headers.append(field) }
        if let retryAfter = failure.retryAfter, response.headers[.retryAfter] == nil {
            response.headers[.retryAfter] = String(retryAfter)
        }
        return response
    }

    /// The JSON error body of `failure`. `error_description` keeps to the RFC 6749 §5.2
    /// character set whatever the endpoint wrote (``ErrorDescriptionText``).
    static func body(of error: any APIErrorRendering, errorID: String, userMessage: String?) -> APIError {
        let failure = error.failure
        var body = APIError(
            failure.code, description: failure.description, details: failure.details,
            errorID: errorID)
        body.errorDescription = body.errorDescription.map(ErrorDescriptionText.sanitized)
        body.errorUserMessage = userMessage
        body.remainingAttempts = failure.remainingAttempts
        body.retryAfter = failure.retryAfter
        error.decorate(&body)
        return body
    }
}
