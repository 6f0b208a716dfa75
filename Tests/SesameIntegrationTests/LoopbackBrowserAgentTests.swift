import Foundation
import Sesame
@testable import SesameLoopback
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP answer the simulated browser received.
private struct BrowserResponse: Sendable {
    let url: URL
    let status: Int
    let headers: [String: String]
    let body: String
}

/// A "browser" for tests: when asked to open an authorization URL it plays the authorization
/// server and the user, then follows the redirect to the `redirect_uri` found in the URL, over
/// real HTTP with URLSession. It can visit other paths first (favicon) and reports everything
/// it received.
private struct SimulatedBrowser: BrowserOpener {
    /// Requests made before the redirect: (method, path).
    var detours: [(method: String, path: String)] = []
    /// The query appended to the redirect URI; `$STATE` is replaced by the request's `state`.
    var redirectQuery = "code=test-code&state=$STATE"
    let responses: AsyncStream<BrowserResponse>
    private let sink: AsyncStream<BrowserResponse>.Continuation

    init(detours: [(method: String, path: String)] = [], redirectQuery: String = "code=test-code&state=$STATE") {
        self.detours = detours
        self.redirectQuery = redirectQuery
        (responses, sink) = AsyncStream.makeStream(of: BrowserResponse.self)
    }

    func open(_ url: URL) async throws {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let redirect = try #require(items.first { $0.name == "redirect_uri" }?.value.flatMap(URL.init(string:)))
        let state = items.first { $0.name == "state" }?.value ?? ""
        for detour in detours {
            var components = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
            components.path = detour.path
            sink.yield(try await Self.fetch(try #require(components.url), method: detour.method))
        }
        let target = try #require(URL(string: redirect.absoluteString + "?" + redirectQuery.replacingOccurrences(of: "$STATE", with: state)))
        sink.yield(try await Self.fetch(target))
        sink.finish()
    }

    /// One request with a fresh, proxy-free session.
    static func fetch(_ url: URL, method: String = "GET") async throws -> BrowserResponse {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        configuration.timeoutIntervalForRequest = 10
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.httpMethod = method
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return BrowserResponse(url: url, status: http.statusCode, headers: headers, body: String(decoding: data, as: UTF8.self))
    }
}

/// A "browser" that follows the redirect over a raw IPv6 socket to [::1] (URLSession on Linux
/// cannot fetch `http://[::1]:…` URLs). Returns the raw HTTP response text.
private struct IPv6Browser: BrowserOpener {
    let responses: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation

    init() {
        (responses, sink) = AsyncStream.makeStream(of: String.self)
    }

    func open(_ url: URL) async throws {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let redirect = try #require(items.first { $0.name == "redirect_uri" }?.value.flatMap(URL.init(string:)))
        let port = try #require(redirect.port)
        let state = items.first { $0.name == "state" }?.value ?? ""
        sink.yield(try Self.get("\(redirect.path)?code=test-code&state=\(state)", port: port))
        sink.finish()
    }

    struct SocketError: Error { let step: String }

    /// `GET target` to [::1]:port with `Connection: close`; the whole response as text.
    static func get(_ target: String, port: Int) throws -> String {
        #if canImport(Glibc)
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET6, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError(step: "socket") }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_loopback
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard connected == 0 else { throw SocketError(step: "connect") }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: [::1]:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { throw SocketError(step: "send") }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response += buffer[0..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }
}

/// An opener that does nothing but say it was called (the user never comes back).
private struct SilentBrowser: BrowserOpener {
    let opened: AsyncStream<URL>
    private let sink: AsyncStream<URL>.Continuation

    init() {
        (opened, sink) = AsyncStream.makeStream(of: URL.self)
    }

    func open(_ url: URL) async throws {
        sink.yield(url)
    }
}

/// An opener that fails like a machine without a browser.
private struct BrokenBrowser: BrowserOpener {
    func open(_ url: URL) async throws {
        throw BrowserOpenerError("no browser here; open this URL in your browser: \(url.absoluteString)")
    }
}

@Suite("LoopbackBrowserAgent")
struct LoopbackBrowserAgentTests {
    /// Starts a session on the default loopback redirect and an `authorize` that waits for the
    /// browser; returns once the (silent) browser was opened, i.e. the request is pending.
    static func pendingAuthorization() async throws
        -> (session: any BrowserAgentSession, redirectURI: URL, pending: Task<URL, any Error>)
    {
        let browser = SilentBrowser()
        let session = try await LoopbackBrowserAgent(opener: browser).start(
            redirectURI: URL(string: "http://127.0.0.1/callback")!, ephemeral: false)
        let redirectURI = session.redirectURI
        let pending = Task {
            try await session.authorize(Self.authorizationURL(redirectURI: redirectURI))
        }
        _ = await browser.opened.first { _ in true }
        return (session, redirectURI, pending)
    }

    /// Records an issue unless `result` is a failure with ``SesameError/cancelled``.
    static func expectCancelled(_ result: Result<URL, any Error>) {
        guard case .failure(let error) = result, case .cancelled? = (error as? SesameError)?.reason else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
    }

    /// What an SDK would send: an authorization URL carrying the session's redirect URI.
    static func authorizationURL(redirectURI: URL, state: String = "s-\(UUID().uuidString)") -> URL {
        var components = URLComponents(string: "https://idp.example.com/authorize")!
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
            URLQueryItem(name: "state", value: state),
        ]
        return components.url!
    }

    /// Whether something still accepts connections on the session's port.
    static func isListening(_ url: URL) async -> Bool {
        do {
            _ = try await SimulatedBrowser.fetch(url)
            return true
        } catch {
            return false
        }
    }

    /// Runs `operation`, returning the `SesameError` it throws (`nil` if none).
    static func sesameError(_ operation: () async throws -> Void) async -> SesameError? {
        do {
            try await operation()
            return nil
        } catch let error as SesameError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test("the redirect comes back with its query, the browser gets a close-this-tab page, and the port closes")
    func fullRedirect() async throws {
        let browser = SimulatedBrowser()
        let agent = LoopbackBrowserAgent(opener: browser, timeout: 30)
        let session = try await agent.start(redirectURI: URL(string: "http://127.0.0.1/callback")!, ephemeral: false)
        let redirectURI = session.redirectURI
        #expect(redirectURI.scheme == "http")
        #expect(redirectURI.host == "127.0.0.1")
        #expect(redirectURI.path == "/callback")
        let port = try #require(redirectURI.port)
        #expect(port > 0)

        let state = "state-\(UUID().uuidString)"
        let returned = try await session.authorize(Self.authorizationURL(redirectURI: redirectURI, state: state))
        #expect(returned.absoluteString == "http://127.0.0.1:\(port)/callback?code=test-code&state=\(state)")

        let page = try #require(await browser.responses.first { _ in true })
        #expect(page.status == 200)
        #expect(page.body.contains("you can close this tab"))
        #expect(page.headers["cache-control"] == "no-store")
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(!page.body.contains("src="))
        #expect(!page.body.contains("href="))

        #expect(await Self.isListening(redirectURI) == false)

        // One session serves one authorization.
        let reuse = await Self.sesameError { _ = try await session.authorize(Self.authorizationURL(redirectURI: redirectURI)) }
        guard case .technical(.platform(let message)) = reuse?.reason else {
            Issue.record("expected a platform failure, got \(String(describing: reuse))")
            return
        }
        #expect(message.contains("already used"))
    }

    @Test("an empty path gets /callback; an error redirect gets a did-not-complete page")
    func defaultPathAndErrorPage() async throws {
        let browser = SimulatedBrowser(redirectQuery: "error=access_denied&state=$STATE")
        let session = try await LoopbackBrowserAgent(opener: browser).start(
            redirectURI: URL(string: "http://127.0.0.1")!, ephemeral: true)
        #expect(session.redirectURI.path == "/callback")
        let returned = try await session.authorize(Self.authorizationURL(redirectURI: session.redirectURI, state: "st"))
        #expect(returned.query == "error=access_denied&state=st")
        let page = try #require(await browser.responses.first { _ in true })
        #expect(page.status == 200)
        #expect(page.body.contains("did not complete"))
    }

    @Test("a fixed port in the redirect URI is bound exactly")
    func fixedPort() async throws {
        // Find a free port by letting the system choose one, then release it.
        let probe = try await LoopbackBrowserAgent(opener: SilentBrowser()).start(
            redirectURI: URL(string: "http://127.0.0.1:0/cb")!, ephemeral: false)
        let port = try #require(probe.redirectURI.port)
        await probe.cancel()

        let browser = SimulatedBrowser()
        let session = try await LoopbackBrowserAgent(opener: browser).start(
            redirectURI: URL(string: "http://127.0.0.1:\(port)/oauth/done")!, ephemeral: false)
        #expect(session.redirectURI.absoluteString == "http://127.0.0.1:\(port)/oauth/done")
        let returned = try await session.authorize(Self.authorizationURL(redirectURI: session.redirectURI, state: "x"))
        #expect(returned.absoluteString == "http://127.0.0.1:\(port)/oauth/done?code=test-code&state=x")
    }

    @Test("a port that is already taken gives a clear error")
    func portInUse() async throws {
        let first = try await LoopbackBrowserAgent(opener: SilentBrowser()).start(
            redirectURI: URL(string: "http://127.0.0.1/cb")!, ephemeral: false)
        let port = try #require(first.redirectURI.port)
        let error = await Self.sesameError {
            _ = try await LoopbackBrowserAgent(opener: SilentBrowser()).start(
                redirectURI: URL(string: "http://127.0.0.1:\(port)/cb")!, ephemeral: false)
        }
        await first.cancel()
        guard case .technical(.platform(let message)) = error?.reason else {
            Issue.record("expected a platform failure, got \(String(describing: error))")
            return
        }
        #expect(message.contains("port \(port)"))
    }

    @Test("localhost and non-loopback redirect URIs are refused with a clear error", arguments: [
        ("http://localhost:8080/callback", "127.0.0.1"),
        ("http://example.com/callback", "127.0.0.1 or [::1]"),
        ("https://127.0.0.1/callback", "must use http"),
        ("http://127.0.0.1/callback?x=1", "query"),
    ])
    func refusedRedirectURIs(uri: String, hint: String) async throws {
        let error = await Self.sesameError {
            _ = try await LoopbackBrowserAgent(opener: SilentBrowser()).start(redirectURI: URL(string: uri)!, ephemeral: false)
        }
        guard case .invalidConfiguration(let message) = error?.reason else {
            Issue.record("\(uri): expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(message.contains(hint), "\(uri): \(message)")
    }

    @Test("other paths get 404 and other methods 405 while the listener keeps waiting")
    func otherRequests() async throws {
        let browser = SimulatedBrowser(detours: [("GET", "/favicon.ico"), ("POST", "/callback")])
        let session = try await LoopbackBrowserAgent(opener: browser).start(
            redirectURI: URL(string: "http://127.0.0.1/callback")!, ephemeral: false)
        let returned = try await session.authorize(Self.authorizationURL(redirectURI: session.redirectURI, state: "s"))
        #expect(returned.query == "code=test-code&state=s")
        var statuses: [Int] = []
        for await response in browser.responses { statuses.append(response.status) }
        #expect(statuses == [404, 405, 200])
    }

    @Test("cancel() ends a pending authorize with .cancelled and closes the port")
    func cancelWhilePending() async throws {
        let (session, redirectURI, pending) = try await Self.pendingAuthorization()
        await session.cancel()
        Self.expectCancelled(await pending.result)
        #expect(await Self.isListening(redirectURI) == false)
        await session.cancel()  // safe to call again
    }

    @Test("cancelling the waiting task ends authorize with .cancelled")
    func taskCancellation() async throws {
        let (_, redirectURI, pending) = try await Self.pendingAuthorization()
        pending.cancel()
        Self.expectCancelled(await pending.result)
        #expect(await Self.isListening(redirectURI) == false)
    }

    @Test("no browser response within the timeout gives a technical error and closes the port")
    func timeout() async throws {
        let session = try await LoopbackBrowserAgent(opener: SilentBrowser(), timeout: 0.2).start(
            redirectURI: URL(string: "http://127.0.0.1/callback")!, ephemeral: false)
        let error = await Self.sesameError {
            _ = try await session.authorize(Self.authorizationURL(redirectURI: session.redirectURI))
        }
        guard case .technical(.platform(let message)) = error?.reason else {
            Issue.record("expected a platform failure, got \(String(describing: error))")
            return
        }
        #expect(message.contains("no browser response"))
        #expect(await Self.isListening(session.redirectURI) == false)
    }

    @Test("an opener failure closes the port and says to open the URL by hand")
    func openerFailure() async throws {
        let session = try await LoopbackBrowserAgent(opener: BrokenBrowser()).start(
            redirectURI: URL(string: "http://127.0.0.1/callback")!, ephemeral: false)
        let error = await Self.sesameError {
            _ = try await session.authorize(Self.authorizationURL(redirectURI: session.redirectURI))
        }
        guard case .technical(.platform(let message)) = error?.reason else {
            Issue.record("expected a platform failure, got \(String(describing: error))")
            return
        }
        #expect(message.contains("could not open the browser"))
        #expect(message.contains("open this URL in your browser"))
        #expect(await Self.isListening(session.redirectURI) == false)
    }

    @Test("the IPv6 loopback address [::1] works too (RFC 8252 §7.3)")
    func ipv6Loopback() async throws {
        let browser = IPv6Browser()
        let session = try await LoopbackBrowserAgent(opener: browser).start(
            redirectURI: URL(string: "http://[::1]/callback")!, ephemeral: false)
        let port = try #require(session.redirectURI.port)
        #expect(session.redirectURI.absoluteString == "http://[::1]:\(port)/callback")
        let returned = try await session.authorize(Self.authorizationURL(redirectURI: session.redirectURI, state: "v6"))
        #expect(returned.absoluteString == "http://[::1]:\(port)/callback?code=test-code&state=v6")
        let response = try #require(await browser.responses.first { _ in true })
        #expect(response.hasPrefix("HTTP/1.1 200"))
        #expect(response.contains("you can close this tab"))
    }

    @Test("after cancel() the port is closed and a later authorize fails with .cancelled")
    func cancelBeforeAuthorize() async throws {
        let browser = SilentBrowser()
        let session = try await LoopbackBrowserAgent(opener: browser).start(
            redirectURI: URL(string: "http://127.0.0.1/callback")!, ephemeral: false)
        await session.cancel()
        #expect(await Self.isListening(session.redirectURI) == false)
        let error = await Self.sesameError {
            _ = try await session.authorize(Self.authorizationURL(redirectURI: session.redirectURI))
        }
        guard case .cancelled? = error?.reason else {
            Issue.record("expected .cancelled, got \(String(describing: error))")
            return
        }
    }

    @Test("a custom success page is served")
    func customSuccessPage() async throws {
        let browser = SimulatedBrowser()
        let session = try await LoopbackBrowserAgent(opener: browser, successPage: "<p>Welcome back to Acme</p>").start(
            redirectURI: URL(string: "http://127.0.0.1/callback")!, ephemeral: false)
        _ = try await session.authorize(Self.authorizationURL(redirectURI: session.redirectURI))
        let page = try #require(await browser.responses.first { _ in true })
        #expect(page.body == "<p>Welcome back to Acme</p>")
    }
}

@Suite("SystemBrowserOpener")
struct SystemBrowserOpenerTests {
    static let url = URL(string: "https://idp.example.com/authorize?client_id=cli&state=abc")!

    /// Writes an executable shell script into a fresh temporary directory, runs `body`, cleans up.
    static func withLauncher(_ script: String, _ body: (URL, URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-opener-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let launcher = directory.appendingPathComponent("fake-open")
        try writeExecutable("#!/bin/sh\n" + script + "\n", to: launcher)
        try await body(launcher, directory)
    }

    /// Writes with `O_CLOEXEC`: a process that another test spawns while the file is open must
    /// not inherit the write descriptor, or running the script fails with ETXTBSY ("Text file
    /// busy") for as long as that process lives.
    static func writeExecutable(_ contents: String, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o700)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw POSIXError(.EIO) }
    }

    @Test("runs the launcher with the URL as its only argument")
    func launchesWithURL() async throws {
        try await Self.withLauncher(#"printf '%s|%s' "$#" "$1" > "$(dirname "$0")/opened.txt""#) { launcher, directory in
            try await SystemBrowserOpener(launcher: launcher).open(Self.url)
            let opened = try String(contentsOf: directory.appendingPathComponent("opened.txt"), encoding: .utf8)
            #expect(opened == "1|\(Self.url.absoluteString)")
        }
    }

    /// Opening with `launcher` fails with an error naming `reason` and telling the user to open
    /// the URL by hand.
    static func expectOpenByHand(launcher: URL?, reason: String) async {
        do {
            try await SystemBrowserOpener(launcher: launcher).open(url)
            Issue.record("expected an error")
        } catch {
            let description = String(describing: error)
            #expect(error is BrowserOpenerError)
            #expect(description.contains(reason), "\(description)")
            #expect(description.contains("open this URL in your browser: \(url.absoluteString)"))
        }
    }

    @Test("a failing launcher gives an error that says to open the URL by hand")
    func failingLauncher() async throws {
        try await Self.withLauncher("exit 3") { launcher, _ in
            await Self.expectOpenByHand(launcher: launcher, reason: "status 3")
        }
    }

    @Test("a launcher that cannot be started gives an error that says to open the URL by hand")
    func missingLauncher() async throws {
        try await Self.withLauncher("exit 0") { _, directory in
            let missing = directory.appendingPathComponent("not-there")
            await Self.expectOpenByHand(launcher: missing, reason: "\(missing.path) could not be started")
        }
    }

    @Test("without a launcher the error says to open the URL by hand")
    func noLauncher() async {
        await Self.expectOpenByHand(launcher: nil, reason: "xdg-open")
    }
}
