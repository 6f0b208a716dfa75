import Hummingbird

/// `GET /health`: liveness for load balancers, `{"status":"ok"}`.
struct HealthEndpoint: Sendable {
    private static let body = ByteBuffer(string: #"{"status":"ok"}"#)

    func handle(_ request: Request, context: SesameRequestContext) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: Self.body))
    }
}
