import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The small HTTP client that prepares a peer server before a side-by-side run: JSON and form
/// requests, cookies passed and read by hand (each request names the session it speaks for),
/// and redirects never followed, so a `302` with a code in its `Location` is read as it is.
final class PeerHTTP: Sendable {
    struct Response: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// The body as JSON, or an error naming the request.
        func json(_ what: String) throws -> [String: Any] {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw BenchmarkSetupError("\(what): answer \(status) is not a JSON object: \(String(decoding: body, as: UTF8.self))")
            }
            return object
        }

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// `name=value` of the cookie `name` that the answer sets.
        func cookie(_ name: String) throws -> String {
            guard let header = header("Set-Cookie"),
                let pair = header.split(separator: ";").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + "=") })
            else { throw BenchmarkSetupError("no \(name) cookie in the answer (\(status))") }
            return pair.trimmingCharacters(in: .whitespaces)
        }
    }

    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) { completionHandler(nil) }
    }

    private let session: URLSession
    let base: String

    /// `base`: the peer's URL (scheme, host, port); paths of the requests are relative to it.
    init(base: String) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        self.session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        self.base = base
    }

    /// A JSON request; `expect` is the status that must come back.
    @discardableResult
    func json(
        _ method: String, _ path: String, _ body: [String: Any]? = nil, cookie: String? = nil, expect: Int = 200
    ) async throws -> Response {
        var request = try makeRequest(method, path, cookie: cookie)
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await send(request, expect: expect)
    }

    /// An `application/x-www-form-urlencoded` POST (RFC 6749 §4.1.3).
    func form(_ path: String, _ fields: [String: String], basic: (String, String)? = nil, expect: Int = 200) async throws
        -> Response
    {
        var request = try makeRequest("POST", path)
        var components = URLComponents()
        components.queryItems = fields.map { URLQueryItem(name: $0.key, value: $0.value) }
        request.httpBody = Data((components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        if let (user, password) = basic {
            request.setValue(
                "Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        }
        return try await send(request, expect: expect)
    }

    /// A GET whose answer is not checked (the caller reads the status and `Location`).
    func get(_ path: String, cookie: String? = nil, bearer: String? = nil) async throws -> Response {
        var request = try makeRequest("GET", path, cookie: cookie)
        if let bearer { request.setValue("Bearer " + bearer, forHTTPHeaderField: "Authorization") }
        return try await send(request, expect: nil)
    }

    private func makeRequest(_ method: String, _ path: String, cookie: String? = nil) throws -> URLRequest {
        guard let url = URL(string: base + path) else { throw BenchmarkSetupError("bad URL \(base + path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        return request
    }

    private func send(_ request: URLRequest, expect: Int?) async throws -> Response {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw BenchmarkSetupError("no HTTP answer") }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        let result = Response(status: http.statusCode, headers: headers, body: data)
        if let expect, http.statusCode != expect {
            throw BenchmarkSetupError(
                "\(request.httpMethod ?? "") \(request.url?.path ?? ""): \(http.statusCode) instead of \(expect): "
                    + String(decoding: data, as: UTF8.self))
        }
        return result
    }
}
