import Foundation
import Hummingbird

/// Health checks for load balancers and orchestrators (Kubernetes probes):
/// - `GET /health/live` (and `GET /health`): the process is up and serving, `{"status":"ok"}`;
///   it never touches the database, so a database outage does not get the process restarted.
/// - `GET /health/ready`: the database answers within ``readinessTimeout`` and its schema is
///   the one this Sesame runs; otherwise 503, so the balancer sends traffic elsewhere.
struct HealthEndpoint: Sendable {
    let store: any IdentityStore
    static let readinessTimeout: Duration = .seconds(2)
    private static let live = ByteBuffer(string: #"{"status":"ok"}"#)

    func live(_ request: Request, context: SesameRequestContext) -> Response {
        Self.json(.ok, Self.live)
    }

    func ready(_ request: Request, context: SesameRequestContext) async -> Response {
        do {
            let version = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try await store.readySchemaVersion() }
                group.addTask {
                    try await Task.sleep(for: Self.readinessTimeout)
                    throw StoreError.unavailable(reason: "the database did not answer within 2 s")
                }
                defer { group.cancelAll() }
                return try await group.next() ?? 0
            }
            return Self.json(.ok, ByteBuffer(string: #"{"status":"ready","schema_version":\#(version)}"#))
        } catch {
            context.annotations.record(outcome: "not_ready")
            let reason = (error as? StoreError).map { "\($0)" } ?? "the database is unavailable"
            let body = (try? JSONEncoder().encode(["status": "unavailable", "reason": reason])) ?? Data()
            return Self.json(.serviceUnavailable, ByteBuffer(bytes: body))
        }
    }

    private static func json(_ status: HTTPResponse.Status, _ body: ByteBuffer) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: body))
    }
}
