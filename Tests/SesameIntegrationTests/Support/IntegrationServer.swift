import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer
import SesameTesting
import StoreTesting
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK suites' fixtures on the tests' one ``TestServer`` (the real server in process on
/// 127.0.0.1, a free port, a fresh sandbox, real time): one public native first-party client
/// and one user, and the SDK configuration and sign-in agent that go with them.
struct IntegrationServer: Sendable {
    static let clientID = "sdk-it-app"
    static let redirectURI = "com.example.sdk:/oauth2redirect"
    static let loopbackRedirectURI = "http://127.0.0.1/callback"
    static let username = "ada"
    static let password = "analytical engine 1843"

    let server: TestServer
    var running: RunningServer { server.running }
    var directory: URL { server.directory }

    /// The issuer identifier exactly as discovery publishes it.
    var issuer: URL {
        var text = running.issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text)!
    }

    static func start(
        _ backend: StoreBackend = .sqlite,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> IntegrationServer {
        let server = try await TestServer.start(backend, seed: false, configure: configure)
        do {
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            _ = try await admin.addClient(
                ClientSpec(clientID: clientID, redirectURIs: [redirectURI, loopbackRedirectURI], firstParty: true))
            _ = try await admin.addUser(username: username, email: "ada@example.com", password: password)
        } catch {
            try? await server.stop()
            throw error
        }
        return IntegrationServer(server: server)
    }

    func stop() async {
        try? await server.stop()
    }

    func configuration(redirectURI: String = IntegrationServer.redirectURI) -> SesameConfiguration {
        SesameConfiguration(issuer: issuer, clientID: Self.clientID, redirectURI: URL(string: redirectURI)!)
    }

    /// A headless agent that signs in through the real login page.
    func agent() -> HeadlessBrowserAgent {
        let login = HostedLogin(username: Self.username, password: Self.password)
        return HeadlessBrowserAgent { url in try await login.signIn(at: url) }
    }
}

/// Runs `body` with a fresh server and always stops it.
func withServer(
    _ backend: StoreBackend = .sqlite,
    configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (IntegrationServer) async throws -> Void
) async throws {
    let server = try await IntegrationServer.start(backend, configure: configure)
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
