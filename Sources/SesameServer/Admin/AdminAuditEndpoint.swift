import Foundation
import Hummingbird
import SesameProtocol

/// The audit log in the admin API (issue #47): `GET /admin/api/audit` pages through the records
/// that match `event` (names, or prefixes ending in `.`, separated by commas), `user_id`, `client_id`,
/// `client_address`, `since` and `until` (seconds since 1970), newest first;
/// `GET /admin/api/overview` counts them for the console's home page;
/// `GET /admin/api/audit/export` answers the same records as NDJSON (one JSON record a line,
/// `application/x-ndjson`) for a SIEM, with `Sesame-Next-Cursor` when there are more.
struct AdminAuditEndpoint: Sendable {
    let authentication: AdminAuthentication
    let keys: SigningKeyAdministration
    let overview: OperatorOverview

    /// The most records one export answer holds.
    static let maximumExport = 10_000

    func page(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let query = try Self.query(request, maximum: 500, default: 100)
        return JSONResponse.make(try await authentication.perform(actor, context: context) { try await keys.auditPage(query, by: $0) })
    }

    /// `GET /admin/api/overview?window=hour|day|month` (``OperatorOverview``).
    func overview(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        var window = OperatorOverview.Window.day
        if let name = request.uri.queryParameters["window"].map(String.init) {
            guard let parsed = OperatorOverview.Window(rawValue: name) else {
                throw EndpointFailure(.invalidRequest, "window is hour, day or month.")
            }
            window = parsed
        }
        return JSONResponse.make(
            try await authentication.perform(actor, context: context) { try await overview.overview(window, by: $0) })
    }

    func export(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let query = try Self.query(request, maximum: Self.maximumExport, default: Self.maximumExport)
        let page = try await authentication.perform(actor, context: context) { try await keys.auditPage(query, by: $0) }
        var response = JSONResponse.make(data: try AdminRequest.ndjson(page.records))
        response.headers[.contentType] = "application/x-ndjson"
        if let next = page.nextCursor { response.headers[.sesameNextCursor] = next }
        return response
    }

    /// The filters of a request; each wrong one a 400 that names it.
    static func query(_ request: Request, maximum: Int, default fallback: Int) throws -> AuditQuery {
        let parameters = request.uri.queryParameters
        func text(_ name: String) throws -> String? {
            guard let value = parameters[Substring(name)].map(String.init), !value.isEmpty else { return nil }
            guard value.count <= 256 else { throw EndpointFailure(.invalidRequest, "\(name) is at most 256 characters.") }
            return value
        }
        func time(_ name: String) throws -> Date? {
            guard let value = try text(name) else { return nil }
            guard let seconds = Int(value), seconds >= 0, seconds < 100_000_000_000 else {
                throw EndpointFailure(.invalidRequest, "\(name) is seconds since 1970, a whole number.")
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        var limit = fallback
        if let value = try text("limit") {
            guard let number = Int(value), (1...maximum).contains(number) else {
                throw EndpointFailure(.invalidRequest, "limit is a whole number from 1 to \(maximum).")
            }
            limit = number
        }
        var before: Int64?
        if let value = try text("cursor") {
            guard let sequence = Int64(value), sequence > 0 else {
                throw EndpointFailure(.invalidRequest, "cursor is not one this server handed out; start again without it.")
            }
            before = sequence
        }
        return AuditQuery(
            userID: try text("user_id"), since: try time("since"), until: try time("until"),
            events: try text("event").map { $0.split(separator: ",").map(String.init) } ?? [], clientID: try text("client_id"),
            clientAddress: try text("client_address"), beforeSequence: before ?? Int64.max, limit: limit)
    }
}
