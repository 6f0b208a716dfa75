import Foundation
import Hummingbird
import SesameProtocol

/// The console's home page and audit log (issue #47):
/// - `GET /admin?window=hour|day|month`: sign-ins, failed sign-ins, lockouts and new users as
///   server-drawn bar charts (``ConsoleChart``), failures by reason, users and live sessions, and
///   the server's health (``OperatorOverview``);
/// - `GET /admin/audit?event=&user=&client=&since=hour|day|week|all&cursor=`: the records, newest
///   first, 50 a page; `GET /admin/audit/export` the same filters as NDJSON (up to 10,000).
struct ConsoleAuditPages: Sendable {
    let page: ConsolePage
    let overview: OperatorOverview
    let keys: SigningKeyAdministration

    func home(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "home") { visit in
            let t = visit.frame.text
            let window =
                request.uri.queryParameters["window"].flatMap { OperatorOverview.Window(rawValue: String($0)) } ?? .day
            let data = try await overview.overview(window, by: visit.actor)
            let colors = ["sign_ins": "#1d4fc4", "failures": "#a1271b", "lockouts": "#8a5a00", "new_users": "#17753a"]
            let charts: [[String: Any]] = data.series.map { series in
                let label = t.string("home.series." + series.name)
                let description = t.string(
                    "home.chart", ["series": label, "total": String(series.total), "peak": String(series.counts.max() ?? 0)])
                return [
                    "label": label, "total": series.total,
                    "svg": ConsoleChart.bars(series.counts, description: description, color: colors[series.name] ?? "#1d4fc4"),
                ]
            }
            var health = [t.string("home.database") + ": " + t.string("home.database_ok")]
            let processes = data.health.processes.map { "\($0.host), pid \($0.pid)" }.joined(separator: "; ")
            health.append(
                t.string("home.processes", ["count": String(data.health.processes.count)])
                    + (processes.isEmpty ? "" : " (" + processes + ")"))
            for (algorithm, age) in data.health.signingKeyAges.sorted(by: { $0.key < $1.key }) {
                health.append(
                    t.string("home.key_age", ["algorithm": algorithm]) + ": " + t.string("home.days", ["days": String(age / 86400)]))
            }
            let content: [String: Any] = [
                "window_label": t.string("home.window"),
                "windows": OperatorOverview.Window.allCases.map {
                    ["value": $0.rawValue, "label": t.string("home.window." + $0.rawValue), "current": $0 == window] as [String: Any]
                },
                "users_label": t.string("home.users"), "users": data.users, "sessions_label": t.string("home.live_sessions"),
                "sessions": data.liveSessions, "charts": charts, "reasons_label": t.string("home.reasons"),
                "reasons": data.failureReasons.map { ["reason": $0.reason, "count": $0.count] as [String: Any] },
                "has_reasons": !data.failureReasons.isEmpty, "reason_label": t.string("home.reason"),
                "count_label": t.string("home.count"), "no_failures": t.string("home.no_failures"),
                "health_label": t.string("home.health"), "health": health,
            ]
            return page.renderer.page("home", title: t.string("home.title"), content, frame: visit.frame)
        }
    }

    func audit(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "audit") { visit in
            let t = visit.frame.text
            let filters = Filters(request)
            let result = try await keys.auditPage(filters.query(limit: 50), by: visit.actor)
            let rows: [[String: String]] = result.records.map { record in
                [
                    "time": Date(timeIntervalSince1970: record.time).consoleText, "event": record.event,
                    "reason": record.reason ?? "", "user": record.userID ?? "", "client": record.clientID ?? "",
                    "address": record.clientAddress ?? "",
                    "detail": record.detail.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
                ]
            }
            var content: [String: Any] = [
                "event": filters.event ?? "", "user": filters.user ?? "", "client": filters.client ?? "",
                "since_options": ["hour", "day", "week", "all"].map {
                    ["value": $0, "label": t.string("audit.since." + $0), "selected": $0 == filters.since] as [String: Any]
                },
                "rows": rows, "has_rows": !rows.isEmpty, "export": "/admin/audit/export?" + filters.queryString(cursor: nil),
                "event_label": t.string("audit.event"), "user_label": t.string("audit.user"),
                "client_label": t.string("audit.client"), "since_label": t.string("audit.since"), "filter": t.string("audit.filter"),
                "export_label": t.string("audit.export"), "time_label": t.string("audit.time"), "event_column": t.string("audit.event"),
                "reason_label": t.string("audit.reason"), "user_column": t.string("audit.user"),
                "client_column": t.string("audit.client"), "address_label": t.string("audit.address"),
                "detail_label": t.string("audit.detail"), "none": t.string("audit.none"), "older_label": t.string("audit.older"),
            ]
            if let next = result.nextCursor { content["older"] = "/admin/audit?" + filters.queryString(cursor: next) }
            return page.renderer.page("audit", title: t.string("audit.title"), content, frame: visit.frame)
        }
    }

    func export(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "audit") { visit in
            let result = try await keys.auditPage(Filters(request).query(limit: AdminAuditEndpoint.maximumExport), by: visit.actor)
            let body = try AdminRequest.ndjson(result.records)
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/x-ndjson", .contentDisposition: #"attachment; filename="sesame-audit.ndjson""#,
                    .cacheControl: "no-store",
                ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    /// The audit page's filters as the form sends them.
    struct Filters {
        var event: String?
        var user: String?
        var client: String?
        var since: String
        var cursor: Int64?

        init(_ request: Request) {
            let query = request.uri.queryParameters
            func text(_ name: String) -> String? {
                guard let value = query[Substring(name)].map(String.init)?.trimmingCharacters(in: .whitespaces), !value.isEmpty
                else { return nil }
                return String(value.prefix(256))
            }
            event = text("event")
            user = text("user")
            client = text("client")
            since = ["hour", "day", "week", "all"].first { $0 == text("since") } ?? "day"
            cursor = text("cursor").flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
        }

        func query(limit: Int) -> AuditQuery {
            let spans: [String: TimeInterval] = ["hour": 3600, "day": 86400, "week": 7 * 86400]
            return AuditQuery(
                userID: user, since: spans[since].map { Date().addingTimeInterval(-$0) },
                events: event.map { $0.split(separator: ",").map(String.init) } ?? [], clientID: client,
                beforeSequence: cursor ?? Int64.max, limit: limit)
        }

        func queryString(cursor: String?) -> String {
            var items = ["since=" + since]
            if let event { items.append("event=" + ConsolePage.queryEncoded(event)) }
            if let user { items.append("user=" + ConsolePage.queryEncoded(user)) }
            if let client { items.append("client=" + ConsolePage.queryEncoded(client)) }
            if let cursor { items.append("cursor=" + ConsolePage.queryEncoded(cursor)) }
            return items.joined(separator: "&")
        }
    }
}
