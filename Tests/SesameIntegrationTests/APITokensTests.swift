import Foundation
import Hummingbird
import Logging
import NIOCore
import Sesame
import SesameProtocol
import SesameStore
import SesameTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's tokens per API (RFC 8707, issue #49) against the real server: sign-in asks for the
/// configured APIs; `data(for:)` sends each API a token for it alone, cached, renewed by a
/// refresh naming the API; the rotated refresh token is kept; API refreshes and the session's own
/// never spend the refresh token twice, however many run at once.
@Suite("SDK: a token per API (RFC 8707)")
struct APITokensTests {
    /// An API that answers with the token it was sent, and refuses tokens the test revoked.
    final class EchoAPI: Sendable {
        let port: Int
        let refused = Mutex<Set<String>>([])
        private let task: Task<Void, any Error>

        init(port: Int, task: Task<Void, any Error>) {
            self.port = port
            self.task = task
        }

        static func start() async throws -> EchoAPI {
            let router = Router()
            let api = Mutex<EchoAPI?>(nil)
            for path in ["/shop/orders", "/points/balance"] {
                router.get(RouterPath(path)) { request, _ -> Response in
                    let token = String((request.headers[.authorization] ?? "").split(separator: " ").last ?? "")
                    let isRefused = api.withLock { $0?.refused.withLock { $0.contains(token) } } ?? false
                    return Response(
                        status: isRefused ? .unauthorized : .ok, headers: [.contentType: "text/plain"],
                        body: .init(byteBuffer: ByteBuffer(string: token)))
                }
            }
            let (port, task) = try await LoopbackApplication.start(router, what: "the echo API")
            let echo = EchoAPI(port: port, task: task)
            api.withLock { $0 = echo }
            return echo
        }

        func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
        func stop() { task.cancel() }
    }

    static func audience(_ token: String) -> [String] {
        let payload = JWTParts.payload(token)
        return (payload["aud"] as? [String]) ?? [(payload["aud"] as? String) ?? ""]
    }

    @Test("each API gets a token for it alone, cached and renewed; concurrent refreshes never reuse the refresh token")
    func tokenPerAPI() async throws {
        let echo = try await EchoAPI.start()
        defer { echo.stop() }
        try await withServer { server in
            let shop = echo.url("/shop"), points = echo.url("/points")
            try await server.server.store.upsertAPI(APIRecord(identifier: shop.absoluteString, name: "Shop", scopes: ["orders:read"]))
            try await server.server.store.upsertAPI(APIRecord(identifier: points.absoluteString, name: "Points", scopes: ["points:read"]))
            var registered = try #require(try await server.server.store.client(id: IntegrationServer.clientID))
            registered.resources = [shop.absoluteString, points.absoluteString]
            try await server.server.store.upsertClient(registered)

            var configuration = server.configuration()
            configuration.apis = [shop, points]
            configuration.scopes = ["openid", "email", "offline_access", "orders:read", "points:read"]
            var logger = Logger(label: "sesame.it.api-tokens")
            logger.logLevel = .error
            let store = InMemoryCredentialStore()
            let client = SesameClient(configuration: configuration, store: store, logger: logger)
            _ = try await client.signIn(with: server.agent())

            // The session's own token: for the issuer and both APIs the sign-in asked for.
            let own = try await client.validAccessToken()
            #expect(Set(Self.audience(own)) == [shop.absoluteString, points.absoluteString, server.issuer.absoluteString])

            let (shopBody, shopResponse) = try await client.data(for: URLRequest(url: echo.url("/shop/orders")))
            #expect(shopResponse.statusCode == 200)
            let shopToken = String(decoding: shopBody, as: UTF8.self)
            #expect(Self.audience(shopToken) == [shop.absoluteString, server.issuer.absoluteString], "the shop and userinfo, not points")
            #expect(JWTParts.payload(shopToken)["scope"] as? String == "openid email offline_access orders:read")
            let (pointsBody, _) = try await client.data(for: URLRequest(url: echo.url("/points/balance")))
            let pointsToken = String(decoding: pointsBody, as: UTF8.self)
            #expect(Self.audience(pointsToken) == [points.absoluteString, server.issuer.absoluteString])
            #expect(!(JWTParts.payload(pointsToken)["scope"] as? String ?? "").contains("orders:read"))

            // Cached: the same token again, no refresh.
            let (again, _) = try await client.data(for: URLRequest(url: echo.url("/shop/orders")))
            #expect(String(decoding: again, as: UTF8.self) == shopToken)
            #expect(try await client.accessToken(forAPI: shop) == shopToken)

            // The API refuses it: one fresh token for that API and one retry.
            echo.refused.withLock { _ = $0.insert(shopToken) }
            let (retried, retriedResponse) = try await client.data(for: URLRequest(url: echo.url("/shop/orders")))
            #expect(retriedResponse.statusCode == 200)
            #expect(String(decoding: retried, as: UTF8.self) != shopToken)

            // Twenty at once, of three kinds: every refresh spends the newest refresh token.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        switch index % 3 {
                        case 0: _ = try await client.accessToken(forAPI: shop, forceRefresh: true)
                        case 1: _ = try await client.accessToken(forAPI: points, forceRefresh: true)
                        default: _ = try await client.validAccessToken(forceRefresh: true)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await client.currentAccount() != nil, "no refresh token was spent twice: the session lives")

            // The rotated refresh token was kept: another client on the same store refreshes.
            let restarted = SesameClient(configuration: configuration, store: store, logger: logger)
            _ = await restarted.restore()
            #expect(!(try await restarted.validAccessToken(forceRefresh: true)).isEmpty)
        }
    }

    @Test("a native sign-in names no API; its session still gets a token for each configured API at refresh")
    func nativeSignInThenAPIToken() async throws {
        let echo = try await EchoAPI.start()
        defer { echo.stop() }
        try await withServer { server in
            let shop = echo.url("/shop")
            try await server.server.store.upsertAPI(APIRecord(identifier: shop.absoluteString, name: "Shop", scopes: ["orders:read"]))
            var registered = try #require(try await server.server.store.client(id: IntegrationServer.clientID))
            registered.resources = [shop.absoluteString]
            try await server.server.store.upsertClient(registered)
            var configuration = server.configuration()
            configuration.apis = [shop]
            configuration.scopes = ["openid", "offline_access", "orders:read"]
            let client = SesameClient(configuration: configuration, store: InMemoryCredentialStore())
            guard case .signedIn = try await client.login(username: IntegrationServer.username, password: IntegrationServer.password)
            else {
                Issue.record("a second factor was asked for")
                return
            }
            #expect(Self.audience(try await client.validAccessToken()) == [server.issuer.absoluteString], "no API named at sign-in")
            let (body, response) = try await client.data(for: URLRequest(url: echo.url("/shop/orders")))
            #expect(response.statusCode == 200)
            #expect(Self.audience(String(decoding: body, as: UTF8.self)) == [shop.absoluteString, server.issuer.absoluteString])
        }
    }
}
