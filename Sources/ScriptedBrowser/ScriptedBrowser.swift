import Foundation
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A person at a browser, scripted: plain HTTP with a cookie jar and **no** automatic
/// redirects, so every hop of a sign-in is visible and the final redirect to an app's redirect
/// URI is captured instead of followed. The demo's "person" and the tests' browser; the hosted
/// pages' scripts need a real browser (the tests drive headless Chromium for those).
public actor ScriptedBrowser {
    /// One answer: where it came from, its status, the resolved `Location`, the body as text.
    public struct Page: Sendable {
        public var url: URL
        public var status: Int
        public var location: URL?
        public var body: String
    }

    private let session: URLSession
    private var cookies: [String: String] = [:]

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 15
        session = URLSession(
            configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    public func get(_ url: URL) async throws -> Page {
        try await send(URLRequest(url: url))
    }

    /// Submits `fields` as `application/x-www-form-urlencoded` (HTML 4.01 §17.13.4).
    public func post(_ url: URL, fields: [(String, String)]) async throws -> Page {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(FormURLEncoding.encode(fields).utf8)
        return try await send(request)
    }

    /// Submits `fields` (in no particular order) form-encoded.
    public func post(_ url: URL, _ fields: [String: String]) async throws -> Page {
        try await post(url, fields: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The value of the cookie `name` the browser holds, if any.
    public func cookie(_ name: String) -> String? { cookies[name] }

    private func send(_ request: URLRequest) async throws -> Page {
        var request = request
        if !cookies.isEmpty {
            request.setValue(
                cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    .joined(separator: "; "),
                forHTTPHeaderField: "Cookie")
        }
        request.setValue("text/html", forHTTPHeaderField: "Accept")
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, let url = request.url else {
            throw ScriptedBrowserError("\(request.url?.host ?? "the server") did not answer over HTTP")
        }
        remember(setCookie: http)
        let location = http.value(forHTTPHeaderField: "Location").flatMap {
            URL(string: $0, relativeTo: url)?.absoluteURL
        }
        return Page(
            url: url, status: http.statusCode, location: location,
            body: String(decoding: data, as: UTF8.self))
    }

    /// Keeps `name=value` of every `Set-Cookie` (attributes ignored: one host, one demo).
    private func remember(setCookie response: HTTPURLResponse) {
        let fields = response.allHeaderFields.compactMap { key, value -> String? in
            guard (key as? String)?.lowercased() == "set-cookie" else { return nil }
            return value as? String
        }
        for field in fields {
            // Several cookies may be folded into one header line, separated by ", " before a
            // new "name=" (Expires dates also contain ", " but are followed by a digit).
            for cookie in Self.splitCookies(field) {
                let pair = cookie.split(separator: ";", maxSplits: 1).first ?? ""
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                if value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
            }
        }
    }

    private static func splitCookies(_ field: String) -> [String] {
        var result: [String] = []
        var current = ""
        let characters = Array(field)
        var index = 0
        while index < characters.count {
            if characters[index] == ",", index + 1 < characters.count,
                characters[index + 1] == " ", index + 2 < characters.count,
                !characters[index + 2].isNumber, current.contains("=")
            {
                result.append(current)
                current = ""
                index += 2
                continue
            }
            current.append(characters[index])
            index += 1
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}

/// Refuses every HTTP redirect so the caller sees the 30x and its `Location`.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
