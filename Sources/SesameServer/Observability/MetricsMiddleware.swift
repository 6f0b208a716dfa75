import Hummingbird

/// Counts and times every request into ``ServerMetrics`` by route pattern, method and status.
/// The route is the router's pattern for the matched endpoint (`context.endpointPath`), or
/// `unmatched` for paths no route serves, so scanners cannot grow the label set.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: Int(response.status.code), since: start)
            return response
        } catch let error as any HTTPResponseError {
            record(request, context, status: Int(error.status.code), since: start)
            throw error
        } catch {
            record(request, context, status: 500, since: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        metrics.request(
            route: route, method: request.method.rawValue, status: status, duration: ContinuousClock.now - start)
    }
}
