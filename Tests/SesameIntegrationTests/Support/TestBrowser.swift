import Foundation
import SesameTesting
import SesameProtocol
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plays the user's browser against the real server over HTTP: GET the authorization URL,
/// fill in the hosted login form, POST it, and return the redirect the server answers with.
/// Redirects are not followed automatically; cookies are kept in a small jar.
final class TestBrowser: Sendable {
    let username: String
    let password: String
    private let session: URLSession
    private let cookies = Mutex<[String: String]>([:])

    init(username: String, password: String) {
        self.username = username
        self.password = password
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Signs in on the login page reached from `authorizationURL`; returns the final redirect
    /// (to the app's redirect URI).
    func signIn(_ authorizationURL: URL) async throws -> URL {
        var (page, response) = try await send(URLRequest(url: authorizationURL))
        var location = response.value(forHTTPHeaderField: "Location")
        // Follow same-server redirects (e.g. /authorize -> /login) until a page or the app.
        var hops = 0
        while let next = location, let url = URL(string: next, relativeTo: authorizationURL)?.absoluteURL,
            url.host == authorizationURL.host, hops < 5
        {
            (page, response) = try await send(URLRequest(url: url))
            location = response.value(forHTTPHeaderField: "Location")
            hops += 1
        }
        if let location, let url = URL(string: location) { return url }  // SSO: no form needed
        guard response.statusCode == 200 else {
            throw BrowserError("expected the login page, got HTTP \(response.statusCode): \(String(decoding: page, as: UTF8.self).prefix(300))")
        }
        let html = String(decoding: page, as: UTF8.self)
        let form = HTMLForm(html: html)
        var fields = form.fields
        fields["username"] = username
        fields["password"] = password
        let action = form.action ?? "/login"
        guard let loginURL = URL(string: action, relativeTo: authorizationURL)?.absoluteURL else {
            throw BrowserError("bad form action \(action)")
        }
        var post = URLRequest(url: loginURL)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(FormURLEncoding.encode(fields).utf8)
        let (body, result) = try await send(post)
        guard (300..<400).contains(result.statusCode), let target = result.value(forHTTPHeaderField: "Location"),
            let url = URL(string: target)
        else {
            throw BrowserError("login did not redirect: HTTP \(result.statusCode) \(String(decoding: body, as: UTF8.self).prefix(300))")
        }
        return url
    }

    /// GETs `url` with the jar's cookies: the body and the response (redirects not followed).
    func get(_ url: URL) async throws -> (String, HTTPURLResponse) {
        let (data, response) = try await send(URLRequest(url: url))
        return (String(decoding: data, as: UTF8.self), response)
    }

    /// POSTs `fields` form-encoded to `url` with the jar's cookies.
    func post(_ url: URL, _ fields: [String: String]) async throws -> (String, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(FormURLEncoding.encode(fields).utf8)
        let (data, response) = try await send(request)
        return (String(decoding: data, as: UTF8.self), response)
    }

    /// GETs `url` (e.g. the loopback redirect) and returns the status.
    func visit(_ url: URL) async throws -> Int {
        try await send(URLRequest(url: url)).1.statusCode
    }

    private func send(_ original: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var request = original
        let header = cookies.withLock { $0.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        if !header.isEmpty { request.setValue(header, forHTTPHeaderField: "Cookie") }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw BrowserError("not HTTP") }
        if let setCookie = http.value(forHTTPHeaderField: "Set-Cookie") {
            for line in setCookie.components(separatedBy: ", ") {
                let pair = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { cookies.withLock { $0[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1] } }
            }
        }
        return (data, http)
    }
}

struct BrowserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
