import Hummingbird
import Logging

/// Writes exactly one `info` line per request: request id, method, path (never the query,
/// which may carry a `state` or `login_hint`), status, client id and outcome.
/// Tokens, codes, passwords and secrets never reach this line (docs/errors.md).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    let logger: Logger

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            log(request: request, context: context, status: 500)
            throw error
        }
        log(request: request, context: context, status: Int(response.status.code))
        return response
    }

    private func log(request: Request, context: Context, status: Int) {
        Self.write(
            logger, requestID: context.id, method: request.method.rawValue, path: request.uri.path, status: status,
            annotations: context.annotations)
    }

    /// The line of one request (also for those ``StaticDocumentResponder`` answers).
    static func write(
        _ logger: Logger, requestID: @autoclosure () -> String, method: String, path: String, status: Int,
        annotations: RequestAnnotations? = nil
    ) {
        // The metadata costs allocations: build it only when the line is written.
        guard logger.logLevel <= .info else { return }
        var metadata: Logger.Metadata = [
            "request_id": .string(requestID()),
            "method": .string(method),
            "path": .string(path),
            "status": .stringConvertible(status),
        ]
        if let annotations {
            if let clientID = annotations.clientID { metadata["client_id"] = .string(clientID) }
            if let outcome = annotations.outcome { metadata["outcome"] = .string(outcome) }
            if let errorID = annotations.errorID { metadata["error_id"] = .string(errorID) }
        }
        logger.info("request", metadata: metadata)
    }
}
