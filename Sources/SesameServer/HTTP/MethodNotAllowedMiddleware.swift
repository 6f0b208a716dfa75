import SesameProtocol
import HTTPTypes
import Hummingbird

/// RFC 9110 §15.5.6: a request whose path exists but not for its method is answered
/// `405 Method Not Allowed` with an `Allow` header listing the methods the path has (`HEAD`
/// wherever `GET` is), as the JSON error `method_not_allowed`; only a path that does not exist
/// is `404`. The router's own answer is 404 for both.
///
/// The middleware is added before the routes exist; ``SesameRouter`` hands it the route table
/// once they are all registered (``RouteMethods/load(_:)``).
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    let routes: RouteMethods

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = routes.methods(for: request.uri.path), !allowed.contains(request.method) else {
                throw error
            }
            let names = allowed.map(\.rawValue).sorted()
            throw EndpointFailure(
                .methodNotAllowed, "\(request.uri.path) answers \(names.joined(separator: ", ")), not \(request.method.rawValue).",
                headers: [.allow: names.joined(separator: ", ")])
        }
    }
}

/// The methods of each registered path pattern (`/api/devices/{device_id}`).
final class RouteMethods: Sendable {
    private let table = LockedState<[(segments: [Substring], methods: Set<HTTPRequest.Method>)]>([])

    /// Takes the router's routes: each path pattern with the methods registered for it.
    func load(_ routes: [(path: String, method: HTTPRequest.Method)]) {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in routes {
            byPath[route.path, default: []].insert(route.method)
            if route.method == .get { byPath[route.path, default: []].insert(.head) }
        }
        table.withLock { $0 = byPath.map { (Self.segments($0.key), $0.value) } }
    }

    /// The methods registered for the pattern `path` matches, or `nil` when none does. Like the
    /// router, the most literal pattern wins (`/api/mfa/email` before `/api/mfa/{method}`).
    func methods(for path: String) -> Set<HTTPRequest.Method>? {
        let requested = Self.segments(path)
        return table.withLock { table in
            let matching = table.filter { Self.matches($0.segments, requested) }
            guard let fewest = matching.map({ Self.parameterCount($0.segments) }).min() else { return nil }
            return matching.filter { Self.parameterCount($0.segments) == fewest }
                .reduce(into: Set()) { $0.formUnion($1.methods) }
        }
    }

    private static func parameterCount(_ pattern: [Substring]) -> Int {
        pattern.filter { $0.hasPrefix("{") || $0.hasPrefix(":") }.count
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// A `{name}` or `:name` segment of the pattern matches any one segment.
    private static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        pattern.count == path.count
            && zip(pattern, path).allSatisfy { expected, actual in
                expected == actual || expected.hasPrefix("{") || expected.hasPrefix(":")
            }
    }
}
