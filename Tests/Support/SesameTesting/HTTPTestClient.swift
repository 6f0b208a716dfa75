import Foundation
import SesameProtocol
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as the tests see it.
public struct TestResponse: Sendable {
    public var status: Int
    /// Header values by lowercased name (repeated headers joined with ", ").
    public var headers: [String: String]
    /// Every `Set-Cookie` header, one per cookie.
    public var setCookies: [String]
    public var body: Data

    public init(status: Int, headers: [String: String], setCookies: [String], body: Data) {
        self.status = status
        self.headers = headers
        self.setCookies = setCookies
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
    public var location: String? { header("Location") }

    /// Query parameters of the `Location` header.
    public var locationQuery: [String: String] {
        guard let location, let components = URLComponents(string: location) else { return [:] }
        var result: [String: String] = [:]
        for item in components.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }

    public func json<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: body) }
    public var jsonObject: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
    }
}

/// A minimal browser for tests: real HTTP over URLSession, redirects NOT followed (so each 303
/// can be inspected), and a manual cookie jar (the server's cookies are host-only, Path=/).
public final class HTTPTestClient: Sendable {
    public let baseURL: URL
    private let session: URLSession
    private let jar = Mutex<[String: String]>([:])

    /// Sends a request another way than `URLSession` (over TLS to a test CA: `NIOTransport.send`).
    public typealias Send = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    private let sender: Send?

    /// A client of `baseURL`; `send`, when given, carries every request instead of `URLSession`
    /// (which on Linux cannot trust a test's own CA). Neither follows redirects.
    public init(baseURL: URL, send: Send? = nil) {
        self.baseURL = baseURL
        sender = send
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        self.session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Current cookie value by name.
    public func cookie(_ name: String) -> String? { jar.withLock { $0[name] } }
    public func setCookie(_ name: String, _ value: String?) { jar.withLock { $0[name] = value } }
    public func clearCookies() { jar.withLock { $0.removeAll() } }

    public func get(_ pathOrURL: String, query: [String: String] = [:], headers: [String: String] = [:]) async throws
        -> TestResponse
    {
        var url = resolve(pathOrURL)
        if !query.isEmpty {
            let separator = url.absoluteString.contains("?") ? "&" : "?"
            url = URL(string: url.absoluteString + separator + FormURLEncoding.encode(query))!
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await send(request)
    }

    public func postForm(_ path: String, _ form: [String: String], headers: [String: String] = [:]) async throws
        -> TestResponse
    {
        try await post(
            path, body: Data(FormURLEncoding.encode(form).utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"].merging(headers) { $1 })
    }

    public func post(_ path: String, body: Data, headers: [String: String]) async throws -> TestResponse {
        var request = URLRequest(url: resolve(path))
        request.httpMethod = "POST"
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await send(request)
    }

    /// Any method, e.g. `PATCH` or `DELETE` with a JSON body.
    public func request(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:])
        async throws -> TestResponse
    {
        var request = URLRequest(url: resolve(path))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await send(request)
    }

    private func resolve(_ pathOrURL: String) -> URL {
        if pathOrURL.hasPrefix("http://") || pathOrURL.hasPrefix("https://") { return URL(string: pathOrURL)! }
        return URL(string: baseURL.absoluteString + pathOrURL)!
    }

    /// Seconds a test request may take. Generous: the whole suite runs its tests in parallel on
    /// two cores (each server generating keys, hashing passwords with scrypt), and one sign-up
    /// through a real SMTP relay once needed more than 20 s there. A hang still fails.
    public static let requestTimeout: TimeInterval = 60

    private func send(_ original: URLRequest) async throws -> TestResponse {
        var request = original
        request.timeoutInterval = Self.requestTimeout
        let cookieHeader = jar.withLock { jar in
            jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        if !cookieHeader.isEmpty && request.value(forHTTPHeaderField: "Cookie") == nil {
            request.setValue(cookieHeader, forHTTPHeaderField: "Cookie")
        }
        let (data, response): (Data, URLResponse) =
            if let sender { try await sender(request) } else { try await session.data(for: request) }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        let setCookies = Self.splitSetCookie(headers["set-cookie"])
        jar.withLock { jar in
            for line in setCookies {
                let pair = line.split(separator: ";", maxSplits: 1)[0]
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                let value = String(parts[1])
                let expired = line.lowercased().contains("max-age=0")
                jar[name] = (value.isEmpty || expired) ? nil : value
            }
        }
        return TestResponse(status: http.statusCode, headers: headers, setCookies: setCookies, body: data)
    }

    /// Foundation joins repeated `Set-Cookie` headers with ", "; Sesame's cookies never contain
    /// commas (Max-Age, no Expires), so splitting is exact.
    public static func splitSetCookie(_ header: String?) -> [String] {
        guard let header else { return [] }
        return header.components(separatedBy: ", ").filter { !$0.isEmpty }
    }
}

/// Returns every redirect to the caller instead of following it.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Never answer a credential prompt (tests use ``RawHTTP`` to see such 401 responses).
    public func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
