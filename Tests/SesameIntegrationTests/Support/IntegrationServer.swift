import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real Sesame server in process on 127.0.0.1 (free port), over SQLite in a unique temp
/// directory, with one public native first-party client and one user.
struct IntegrationServer: Sendable {
    static let clientID = "sdk-it-app"
    static let redirectURI = "com.example.sdk:/oauth2redirect"
    static let loopbackRedirectURI = "http://127.0.0.1/callback"
    static let username = "ada"
    static let password = "analytical engine 1843"

    let running: RunningServer
    let directory: URL

    /// The issuer identifier exactly as discovery publishes it.
    var issuer: URL {
        var text = running.issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text)!
    }

    static func start(
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> IntegrationServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-sdk-it-\(UUID().uuidString)")
        var logger = Logger(label: "sesame.it.server")
        logger.logLevel = .error
        let hasher = ScryptPasswordHasher(logN: 10)
        var configuration = ServerConfiguration(
            dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: hasher)
        configure(&configuration)
        let running = try await IdentityServer.start(configuration, logger: logger)
        let admin = ServerAdmin(store: running.store, hasher: hasher, keyRing: running.keyRing)
        _ = try await admin.addClient(
            ClientSpec(clientID: clientID, redirectURIs: [redirectURI, loopbackRedirectURI], firstParty: true))
        _ = try await admin.addUser(username: username, email: "ada@example.com", password: password)
        return IntegrationServer(running: running, directory: directory)
    }

    func stop() async {
        try? await running.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    func configuration(redirectURI: String = IntegrationServer.redirectURI) -> SesameConfiguration {
        SesameConfiguration(issuer: issuer, clientID: Self.clientID, redirectURI: URL(string: redirectURI)!)
    }

    /// A headless agent that signs in through the real login page.
    func agent() -> HeadlessBrowserAgent {
        let browser = TestBrowser(username: Self.username, password: Self.password)
        return HeadlessBrowserAgent { url in try await browser.signIn(url) }
    }
}

/// Runs `body` with a fresh server and always stops it.
func withServer(
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (IntegrationServer) async throws -> Void
) async throws {
    let server = try await IntegrationServer.start(configure: configure)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// Real HTTP (URLSessionTransport) that counts token-endpoint refreshes and can hold them at
/// a gate, or spoil the next bearer token to provoke a real 401.
final class ObservingTransport: HTTPTransport {
    struct State {
        var refreshRequests = 0
        var tokenRequests = 0
        var revocations = 0
        var spoilNextBearer = false
        var bearersSent: [String] = []
    }

    private let inner = URLSessionTransport()
    let state = Mutex(State())
    let refreshGate: Gate?

    init(refreshGate: Gate? = nil) { self.refreshGate = refreshGate }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var request = request
        let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
        let isRefresh = request.url?.path == "/token" && body.contains("grant_type=refresh_token")
        state.withLock { s in
            if request.url?.path == "/token" { s.tokenRequests += 1 }
            if isRefresh { s.refreshRequests += 1 }
            if request.url?.path == "/revoke" { s.revocations += 1 }
        }
        if let bearer = request.value(forHTTPHeaderField: "Authorization"), bearer.hasPrefix("Bearer ") {
            let spoil = state.withLock { s -> Bool in
                defer { s.spoilNextBearer = false }
                s.bearersSent.append(bearer)
                return s.spoilNextBearer
            }
            if spoil { request.setValue("Bearer spoiled", forHTTPHeaderField: "Authorization") }
        }
        if isRefresh, let refreshGate { await refreshGate.wait() }
        return try await inner.send(request)
    }
}

/// A suspension point tests open by hand.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var arrived = false
    private var arrivalWaiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        arrived = true
        for waiter in arrivalWaiters { waiter.resume() }
        arrivalWaiters.removeAll()
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func arrival() async {
        if arrived { return }
        await withCheckedContinuation { arrivalWaiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
