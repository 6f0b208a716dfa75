import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real Sesame server in-process and an SDK client signed in to it, with a transport that
/// counts token-endpoint requests: the refresh fan-in must cause exactly one.
final class FanInFixture: Sendable {
    /// Short, so an iteration can wait for expiry; `refreshAhead` is 0 for the same reason.
    static let accessTokenLifetime = 3

    let running: RunningServer
    let client: SesameClient
    let transport: CountingTransport
    let directory: URL

    static func start() async throws -> FanInFixture {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-fanin-\(UUID().uuidString)")
        let running = try await IdentityServer.start(
            ServerConfiguration(dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: ScryptPasswordHasher(logN: 10)),
            logger: logger)
        let admin = ServerAdmin(store: running.store, hasher: ScryptPasswordHasher(logN: 10), keyRing: running.keyRing)
        _ = try await admin.addClient(ClientSpec(
                clientID: "fanin", redirectURIs: ["http://127.0.0.1/callback"],
                accessTokenLifetime: accessTokenLifetime))
        _ = try await admin.addUser(username: "fan", email: "fan@example.com", password: "correct horse battery")

        let transport = CountingTransport()
        let configuration = SesameConfiguration(
            issuer: running.issuer, clientID: "fanin", redirectURI: URL(string: "http://127.0.0.1:1/callback")!,
            refreshAhead: 0)
        let client = SesameClient(
            configuration: configuration, store: InMemoryCredentialStore(), transport: transport, logger: logger)
        let agent = HeadlessBrowserAgent { url in try await LoginFormDriver.signIn(url, username: "fan", password: "correct horse battery") }
        _ = try await client.signIn(with: agent)
        return FanInFixture(running: running, client: client, transport: transport, directory: directory)
    }

    private init(running: RunningServer, client: SesameClient, transport: CountingTransport, directory: URL) {
        self.running = running
        self.client = client
        self.transport = transport
        self.directory = directory
    }
}

/// URLSession transport that counts POSTs to the token endpoint.
final class CountingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    let tokenRequests = Atomic<Int>(0)

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if request.httpMethod == "POST", request.url?.path.hasSuffix("/token") == true {
            tokenRequests.add(1, ordering: .relaxed)
        }
        return try await inner.send(request)
    }
}

/// Drives the hosted login page like a person: GET the authorization URL, read the form,
/// POST the credentials, and hand back the 303 redirect (not followed).
enum LoginFormDriver {
    final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) { completionHandler(nil) }
    }

    static func signIn(_ authorizationURL: URL, username: String, password: String) async throws -> URL {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (page, pageResponse) = try await session.data(from: authorizationURL)
        let html = String(decoding: page, as: UTF8.self)
        var fields: [(String, String)] = []
        let input = try Regex(#"<input[^>]*>"#)
        for match in html.matches(of: input) {
            let tag = String(html[match.range])
            guard let name = attribute("name", in: tag) else { continue }
            if name == "username" { fields.append((name, username)); continue }
            if name == "password" { fields.append((name, password)); continue }
            fields.append((name, attribute("value", in: tag) ?? ""))
        }
        let action = html.firstMatch(of: try Regex(#"<form[^>]*action="([^"]*)""#)).map { String($0.output[1].substring ?? "") } ?? "/login"
        var request = URLRequest(url: URL(string: action.replacingOccurrences(of: "&amp;", with: "&"), relativeTo: authorizationURL)!.absoluteURL)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        if let http = pageResponse as? HTTPURLResponse,
            let headers = http.allHeaderFields as? [String: String]
        {
            let cookies = HTTPCookie.cookies(withResponseHeaderFields: headers, for: authorizationURL)
            for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) {
                request.setValue(value, forHTTPHeaderField: name)
            }
        }
        request.httpBody = Data(FixtureBytes.form(fields).utf8)
        let (_, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 303,
            let location = http.value(forHTTPHeaderField: "Location"), let url = URL(string: location)
        else { throw URLError(.badServerResponse) }
        return url
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let regex = try? Regex("\\b\(name)=\"([^\"]*)\""), let match = tag.firstMatch(of: regex) else { return nil }
        return (match.output[1].substring.map(String.init) ?? "")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}
