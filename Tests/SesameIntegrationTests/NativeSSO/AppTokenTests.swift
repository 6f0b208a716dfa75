import Crypto
import Foundation
import JWTKit
import Logging
import Sesame
import SesameProtocol
import SesameServer
import SesameTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// App-level tokens (client credentials, RFC 6749 §4.4) from the SDK, with `client_secret_basic`
/// and with `private_key_jwt` (RFC 7523), and the server's checks of client assertions.
@Suite("App-level tokens and private_key_jwt")
struct AppTokenTests {
    static func client(
        _ server: IntegrationServer, clientID: String, secret: String? = nil, privateKeyJWT: Bool = false,
        store: any CredentialStore = InMemoryCredentialStore(), transport: any HTTPTransport = URLSessionTransport()
    ) -> SesameClient {
        var configuration = server.configuration()
        configuration.clientID = clientID
        configuration.clientSecret = secret
        if privateKeyJWT { configuration.tokenEndpointAuthMethod = .privateKeyJWT }
        var logger = Logger(label: "sesame.it.app-token")
        logger.logLevel = .error
        return SesameClient(
            configuration: configuration, store: store, transport: transport, clock: SystemClock(), logger: logger,
            retryPolicy: .none)
    }

    static func admin(_ server: IntegrationServer) -> ServerAdmin {
        ServerAdmin(store: server.running.store, hasher: TestServer.hasher, keyRing: server.running.keyRing)
    }

    @Test("1,000 concurrent appAccessToken() calls make one token request; the token is the app's (sub = client id) and is cached")
    func singleFlight() async throws {
        try await withServer { server in
            let (_, secret) = try await Self.admin(server).addClient(
                ClientSpec(clientID: "catalog", confidential: true, grantTypes: [.clientCredentials], scopes: ["catalog.read"]))
            let transport = ObservingTransport()
            let app = Self.client(server, clientID: "catalog", secret: secret, transport: transport)
            _ = try await app.metadata()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<1_000 { group.addTask { try await app.appAccessToken() } }
                var all = Set<String>()
                for try await token in group { all.insert(token) }
                return all
            }
            #expect(tokens.count == 1)
            #expect(transport.state.withLock { $0.tokenRequests } == 1)
            let payload = try jwtPayload(try #require(tokens.first))
            #expect(payload["sub"] as? String == "catalog" && payload["scope"] as? String == "catalog.read")
            _ = try await app.appAccessToken()
            #expect(transport.state.withLock { $0.tokenRequests } == 1, "served from the cache")
            _ = try await app.appAccessToken(forceRefresh: true)
            #expect(transport.state.withLock { $0.tokenRequests } == 2)
        }
    }

    @Test("a public client gets a clear error instead of a request")
    func publicClientRefused() async throws {
        try await withServer { server in
            let app = Self.client(server, clientID: IntegrationServer.clientID)
            do throws(SesameError) {
                _ = try await app.appAccessToken()
                Issue.record("a public client got an app token")
            } catch {
                #expect(error.code == .invalidConfiguration, "\(error)")
                #expect(error.description.contains("client_secret") && error.description.contains("private_key_jwt"))
            }
        }
    }

    @Test("private_key_jwt: the SDK's key (kept in its store) is registered, app tokens flow, and the key survives a restart")
    func sdkPrivateKeyJWT() async throws {
        try await withServer { server in
            let store = InMemoryCredentialStore()
            let app = Self.client(server, clientID: "backend", privateKeyJWT: true, store: store)
            let jwks = try await app.clientPublicKeySet()
            #expect(!jwks.contains("\"d\""), "the public key set holds no private part")
            let (record, secret) = try await Self.admin(server).addClient(
                ClientSpec(clientID: "backend", grantTypes: [.clientCredentials], scopes: ["catalog.read"], jwks: jwks))
            #expect(secret == nil && record.tokenEndpointAuthMethod == .privateKeyJWT)
            let token = try await app.appAccessToken()
            #expect(try jwtPayload(token)["client_id"] as? String == "backend")
            let restarted = Self.client(server, clientID: "backend", privateKeyJWT: true, store: store)
            #expect(try await restarted.clientPublicKeySet() == jwks)
            _ = try await restarted.appAccessToken()
            // A secret is not accepted for a private_key_jwt client.
            let basic = Self.client(server, clientID: "backend", secret: String(repeating: "x", count: 40))
            do throws(SesameError) {
                _ = try await basic.appAccessToken()
                Issue.record("a secret authenticated a private_key_jwt client")
            } catch {
                #expect(error.code == .authenticationFailed && error.httpStatus == 401, "\(error)")
                #expect(error.apiError?.error == "invalid_client")
            }
        }
    }

    struct Assertion: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var exp: Int
        var iat: Int
        var jti: String?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    @Test("the server checks each RFC 7523 rule of a client assertion: signature and key, iss/sub, aud, exp, lifetime, jti and its replay")
    func assertionRules() async throws {
        try await withServer { server in
            let key = P256.Signing.PrivateKey()
            let point = key.publicKey.x963Representation
            let jwks = """
                {"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"\(Base64URL.encode(point.dropFirst().prefix(32)))","y":"\(Base64URL.encode(point.suffix(32)))"}]}
                """
            _ = try await Self.admin(server).addClient(
                ClientSpec(clientID: "crafted", grantTypes: [.clientCredentials], scopes: ["catalog.read"], jwks: jwks))
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: "k1")
            let strangers = JWTKeyCollection()
            await strangers.add(ecdsa: ES256PrivateKey(), kid: "k1")
            let tokenURL = server.issuer.absoluteString + "/token"
            let now = Int(Date().timeIntervalSince1970)
            func assertion(
                _ change: (inout Assertion) -> Void = { _ in }, signer: JWTKeyCollection? = nil
            ) async throws -> String {
                var claims = Assertion(
                    iss: "crafted", sub: "crafted", aud: tokenURL, exp: now + 60, iat: now, jti: UUID().uuidString)
                change(&claims)
                return try await (signer ?? keys).sign(claims, kid: "k1")
            }
            func post(_ assertion: String) async throws -> (Int, [String: Any]) {
                var request = URLRequest(url: URL(string: tokenURL)!)
                request.httpMethod = "POST"
                request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(
                    FormURLEncoding.encode([
                        ("grant_type", "client_credentials"),
                        ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                        ("client_assertion", assertion),
                    ]).utf8)
                let (data, response) = try await URLSession.shared.data(for: request)
                return (
                    (response as? HTTPURLResponse)?.statusCode ?? 0,
                    (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
                )
            }
            let good = try await assertion()
            #expect(try await post(good).0 == 200)
            let replay = try await post(good)
            #expect(replay.0 == 401 && (replay.1["error_description"] as? String)?.contains("replay") == true)
            let unsigned = try await assertion().split(separator: ".").prefix(2).joined(separator: ".") + "."
            let cases: [(String, String, String)] = [
                ("another key", try await assertion(signer: strangers), "signature"),
                ("no signature", unsigned, "signature"),
                ("another issuer", try await assertion { $0.iss = "someone" }, "registered client"),
                ("sub is not the client", try await assertion { $0.sub = "someone" }, "iss and sub"),
                ("another audience", try await assertion { $0.aud = "https://elsewhere.example" }, "aud"),
                ("expired", try await assertion { $0.exp = now - 120 }, "expired"),
                ("too long-lived", try await assertion { $0.exp = now + 3_600 }, "10 minutes"),
                ("no jti", try await assertion { $0.jti = nil }, "jti"),
            ]
            for (name, token, rule) in cases {
                let (status, body) = try await post(token)
                #expect(status == 401 || status == 400, "\(name)")
                #expect(body["access_token"] == nil, "\(name)")
                #expect((body["error_description"] as? String)?.contains(rule) == true, "\(name): \(body)")
            }
        }
    }
}
