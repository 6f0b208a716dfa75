import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import SesameProtocol
import SesameServer

/// The real Sesame server, in-process on 127.0.0.1, on an on-disk data directory, with one
/// public client holding refresh-token chains, one confidential client for client_credentials.
final class BenchServer: Sendable {
    static let connections = 32
    static let confidentialSecretKey = "bench-cc"

    let running: RunningServer
    let client: HTTPClient
    let dataDirectory: URL
    let clientSecret: String
    let userID: String
    let refreshChains: RefreshChains

    static func start() async throws -> BenchServer {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-bench-\(UUID().uuidString)")
        let configuration = ServerConfiguration(
            dataDirectory: DataDirectory(url: directory), port: 0,
            passwordHasher: ScryptPasswordHasher(logN: 10))
        let running = try await SesameServer.start(configuration, logger: logger)
        let admin = ServerAdmin(
            store: running.store, hasher: ScryptPasswordHasher(logN: 10), keyRing: running.keyRing)
        _ = try await admin.addClient(
            ClientSpec(clientID: "bench", redirectURIs: ["http://127.0.0.1/callback"]))
        let (_, secret) = try await admin.addClient(
            ClientSpec(clientID: "bench-cc", confidential: true, grantTypes: [.clientCredentials], scopes: ["api"]))
        let user = try await admin.addUser(
            username: "bench", email: "bench@example.com", password: "correct horse battery")

        var configurationHTTP = HTTPClient.Configuration()
        configurationHTTP.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configurationHTTP)
        let chains = RefreshChains()
        let server = BenchServer(
            running: running, client: client, dataDirectory: directory, clientSecret: secret ?? "",
            userID: user.id, refreshChains: chains)
        try await server.mintRefreshChains(count: connections)
        return server
    }

    private init(
        running: RunningServer, client: HTTPClient, dataDirectory: URL, clientSecret: String,
        userID: String, refreshChains: RefreshChains
    ) {
        self.running = running
        self.client = client
        self.dataDirectory = dataDirectory
        self.clientSecret = clientSecret
        self.userID = userID
        self.refreshChains = refreshChains
    }

    /// One refresh-token family per connection, as a signed-in app would hold (the grant that
    /// created them is not what is measured).
    private func mintRefreshChains(count: Int) async throws {
        for worker in 0..<count {
            let token = SecureRandom.token()
            let now = Date()
            try await running.store.insertRefreshToken(
                RefreshTokenRecord(
                    tokenDigest: SecretDigest.of(token), familyID: UUID().uuidString, clientID: "bench",
                    scope: "openid profile offline_access",
                    authentication: AuthenticationContext(userID: userID, authTime: now),
                    sessionID: nil, issuedAt: now, expiresAt: now.addingTimeInterval(86_400)))
            await refreshChains.set(worker, token)
        }
    }

    var issuer: String { running.issuer.absoluteString }

    func refreshRequest(worker: Int) async -> HTTPClientRequest {
        let token = await refreshChains.get(worker)
        return formPost(
            "/token",
            FormURLEncoding.encode([
                ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "bench"),
            ]))
    }

    func clientCredentialsRequest() -> HTTPClientRequest {
        var request = formPost(
            "/token", FormURLEncoding.encode([("grant_type", "client_credentials"), ("scope", "api")]))
        let basic = Data("bench-cc:\(clientSecret)".utf8).base64EncodedString()
        request.headers.add(name: "Authorization", value: "Basic \(basic)")
        return request
    }

    func discoveryRequest() -> HTTPClientRequest {
        HTTPClientRequest(url: issuer + "/.well-known/openid-configuration")
    }

    private func formPost(_ path: String, _ body: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: issuer + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: body))
        return request
    }

    func stop() async throws {
        try await client.shutdown()
        try await running.shutdown()
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}

/// The current refresh token of each worker (each response rotates it).
actor RefreshChains {
    private var tokens: [Int: String] = [:]
    func get(_ worker: Int) -> String { tokens[worker] ?? "" }
    func set(_ worker: Int, _ token: String) { tokens[worker] = token }

    /// Reads the rotated refresh token out of a token response.
    func rotate(_ worker: Int, body: ByteBuffer) {
        guard let response = try? JSONDecoder().decode(TokenResponse.self, from: Data(body.readableBytesView)),
            let next = response.refreshToken
        else { return }
        tokens[worker] = next
    }
}

/// A payload shaped like an RFC 9068 access token, for measuring the signing bound.
struct SigningProbeClaims: JWTPayload {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var jti: String
    var client_id: String
    var scope: String

    func verify(using algorithm: some JWTAlgorithm) throws {}

    static func sample() -> SigningProbeClaims {
        let now = Int(Date().timeIntervalSince1970)
        return SigningProbeClaims(
            iss: "http://127.0.0.1:8080", sub: UUID().uuidString, aud: "http://127.0.0.1:8080",
            exp: now + 900, iat: now, jti: SecureRandom.token(byteCount: 16), client_id: "bench",
            scope: "openid profile offline_access")
    }
}
