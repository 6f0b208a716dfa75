import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameStore
import SesameTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK with DPoP (RFC 9449, issue #32) against the real server: a key per account, proofs
/// on every token request and on `data(for:)`, the server's nonce handled, and the tokens of the
/// device's storage useless without the key.
@Suite("SDK: DPoP-bound tokens")
struct DPoPSignInTests {
    final class Recorder: Sendable {
        let opened = PushedAuthorizationSignInTests.LockedURLs()
        func agent() -> HeadlessBrowserAgent {
            let login = HostedLogin(username: IntegrationServer.username, password: IntegrationServer.password)
            let opened = opened
            return HeadlessBrowserAgent { url in
                opened.append(url)
                return try await login.signIn(at: url, redirectURI: URL(string: IntegrationServer.redirectURI))
            }
        }
    }

    func client(_ server: IntegrationServer, dpop: SesameConfiguration.DPoPBinding, store: InMemoryCredentialStore)
        -> SesameClient
    {
        var configuration = server.configuration()
        configuration.dpop = dpop
        var logger = Logger(label: "sesame.it.dpop")
        logger.logLevel = .error
        return SesameClient(configuration: configuration, store: store, logger: logger)
    }

    /// The stored session record of `account`, as JSON.
    static func stored(_ store: InMemoryCredentialStore, _ account: Account) async throws -> [String: Any] {
        let data = try #require(try await store.load("sesame.session." + account.id))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("sign-in binds the tokens to a new key; data(for:) and userInfo send proofs; the stored token alone is refused")
    func boundSession() async throws {
        try await withServer { server in
            let store = InMemoryCredentialStore()
            let recorder = Recorder()
            let sdk = client(server, dpop: .required, store: store)
            let account = try await sdk.signIn(with: recorder.agent())
            // The code was bound at /authorize too (RFC 9449 §10).
            let opened = try #require(recorder.opened.all.first)
            let jkt = try #require(PushedAuthorizationSignInTests.query(opened)["dpop_jkt"])
            let record = try await Self.stored(store, account)
            #expect((record["tokenType"] as? String)?.lowercased() == "dpop")
            #expect(record["dpopKey"] != nil)
            let accessToken = try #require(record["accessToken"] as? String)
            #expect((JWTParts.payload(accessToken)["cnf"] as? [String: Any])?["jkt"] as? String == jkt)

            // The SDK's calls carry proofs.
            let claims = try await sdk.userInfo()
            #expect(claims.sub == account.subject)
            let (_, response) = try await sdk.data(for: URLRequest(url: server.issuer.appendingPathComponent("userinfo")))
            #expect(response.statusCode == 200)

            // A copy of the device's storage: the access token as a bearer token, refused.
            let stolen = try await server.server.client().get("/userinfo", headers: ["Authorization": "Bearer \(accessToken)"])
            #expect(stolen.status == 401)
            // The refresh token without the key: refused, and the session still refreshes.
            let refreshToken = try #require(record["refreshToken"] as? String)
            let thief = try await server.server.client().postForm(
                "/token",
                ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": IntegrationServer.clientID])
            #expect(thief.status == 400)
            #expect(thief.jsonObject["error"] as? String == "invalid_dpop_proof")
            let refreshed = try await sdk.validAccessToken(forceRefresh: true)
            #expect(refreshed != accessToken)
            #expect((JWTParts.payload(refreshed)["cnf"] as? [String: Any])?["jkt"] as? String == jkt)
            #expect(try await sdk.userInfo().sub == account.subject)
        }
    }

    @Test("a server that requires nonces: sign-in, refresh and data(for:) retry once with the nonce, invisibly")
    func nonces() async throws {
        try await withServer(configure: { $0.dpop.requireNonce = true }) { server in
            let sdk = client(server, dpop: .required, store: InMemoryCredentialStore())
            let account = try await sdk.signIn(with: Recorder().agent())
            #expect(try await sdk.userInfo().sub == account.subject)
            _ = try await sdk.validAccessToken(forceRefresh: true)
            let (_, response) = try await sdk.data(for: URLRequest(url: server.issuer.appendingPathComponent("userinfo")))
            #expect(response.statusCode == 200)
        }
    }

    @Test("with pushed authorization requests the push carries the proof; off keeps bearer tokens")
    func pushedAndOff() async throws {
        try await withServer(configure: { $0.requirePushedRequests = true }) { server in
            let store = InMemoryCredentialStore()
            let sdk = client(server, dpop: .whenSupported, store: store)
            let account = try await sdk.signIn(with: Recorder().agent())
            let record = try await Self.stored(store, account)
            #expect((record["tokenType"] as? String)?.lowercased() == "dpop")
            #expect(try await sdk.userInfo().sub == account.subject)

            let plainStore = InMemoryCredentialStore()
            let plain = client(server, dpop: .off, store: plainStore)
            let other = try await plain.signIn(with: Recorder().agent())
            let plainRecord = try await Self.stored(plainStore, other)
            #expect((plainRecord["tokenType"] as? String)?.lowercased() == "bearer")
            #expect(plainRecord["dpopKey"] == nil)
            #expect(try await plain.userInfo().sub == other.subject)
        }
    }

    @Test("the configuration reads dpop from JSON")
    func json() throws {
        let json = #"{"issuer":"https://id.example.com","client_id":"app","redirect_uri":"com.example:/cb","dpop":"required"}"#
        let configuration = try JSONDecoder().decode(SesameConfiguration.self, from: Data(json.utf8))
        #expect(configuration.dpop == .required)
        let none = #"{"issuer":"https://id.example.com","client_id":"app","redirect_uri":"com.example:/cb"}"#
        #expect(try JSONDecoder().decode(SesameConfiguration.self, from: Data(none.utf8)).dpop == .off)
    }
}
