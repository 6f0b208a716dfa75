import Hummingbird
import Logging

/// Writes exactly one `info` line per request: request id, method, path (never the query,
/// which may carry a `state` or `login_hint`), status, client id and outcome.
/// Tokens, codes, passwords and secrets never reach this line (docs/errors.md).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    let lines: RequestLog

    init(logger: Logger) { lines = RequestLog(logger) }

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
        lines.write(
            requestID: .text(context.id), method: request.method.rawValue, path: request.uri.path, status: status,
            annotations: context.annotations)
    }
}

/// Where request lines go: the logger, and its handler as a ``RequestLineHandler`` when it is one
/// (looked up once here, not with a dynamic cast per request).
struct RequestLog: Sendable {
    let logger: Logger
    private let direct: (any RequestLineHandler)?

    init(_ logger: Logger) {
        self.logger = logger
        direct = logger.handler as? any RequestLineHandler
    }

    /// The line of one request (also for those ``StaticDocumentResponder`` answers): straight to
    /// a ``RequestLineHandler``, else through swift-log with the fields as metadata.
    func write(
        requestID: @autoclosure () -> RequestIdentifier, method: String, path: String, status: Int,
        annotations: RequestAnnotations? = nil
    ) {
        // Nothing is built unless the line is written.
        guard logger.logLevel <= .info else { return }
        let line = RequestLine(
            requestID: requestID(), method: method, path: path, status: status, clientID: annotations?.clientID,
            outcome: annotations?.outcome, errorID: annotations?.errorID)
        if let direct, direct.logRequest(line, message: "request", source: "SesameServer") { return }
        logger.info("request", metadata: line.metadata)
    }
}
