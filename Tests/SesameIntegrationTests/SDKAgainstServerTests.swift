import TestSupport
import Crypto
import Foundation
import Logging
import Sesame
import SesameLoopback
import SesameProtocol
import SesameTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK against the real Sesame server, in process, over real HTTP on 127.0.0.1.
@Suite("SDK against the Sesame server")
struct SDKAgainstServerTests {
    func tempDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sesame-sdk-store-\(UUID().uuidString)")
    }

    func client(
        _ server: IntegrationServer, store: any CredentialStore = InMemoryCredentialStore(),
        transport: any HTTPTransport = URLSessionTransport(), clock: any SesameClock = SystemClock(),
        redirectURI: String = IntegrationServer.redirectURI
    ) -> SesameClient {
        var logger = Logger(label: "sesame.it.sdk")
        logger.logLevel = .error
        return SesameClient(
            configuration: server.configuration(redirectURI: redirectURI), store: store,
            transport: transport, clock: clock, logger: logger,
            retryPolicy: RetryPolicy(delays: [.zero], sleep: { _ in }))
    }

    @Test("browser sign in with headless agent")

    func browserSignInWithHeadlessAgent() async throws {
        try await withServer { server in
            let client = client(server)
            let metadata = try await client.metadata()
            #expect(metadata.issuer == server.issuer.absoluteString)
            let account = try await client.signIn(with: server.agent())
            #expect(account.issuer == server.issuer.absoluteString)
            // Sesame's ID token carries no profile claims unless asked for: the account's label
            // comes from userinfo at sign-in (issue #45).
            #expect(account.email == "ada@example.com")
            #expect(await client.accounts().first?.email == "ada@example.com", "stored with the account")
            let claims = try await client.idTokenClaims()
            #expect(claims.sub == account.subject)
            #expect(claims.aud.contains(IntegrationServer.clientID))
            let profile = try await client.userInfo()
            #expect(profile.sub == account.subject)
            #expect(profile.email == "ada@example.com")
            #expect(!(try await client.validAccessToken()).isEmpty)
        }
    }

    @Test("browser sign in with loopback agent")

    func browserSignInWithLoopbackAgent() async throws {
        try await withServer { server in
            let client = client(server, redirectURI: IntegrationServer.loopbackRedirectURI)
            // Generous: a loaded CI machine runs Chromium suites beside this one.
            let opener = ScriptedOpener(
                login: HostedLogin(username: IntegrationServer.username, password: IntegrationServer.password))
            let agent = LoopbackBrowserAgent(opener: opener, timeout: 90)
            let account: Account
            do {
                account = try await client.signIn(with: agent)
            } catch {
                Issue.record("the scripted browser: \(opener.failure.withLock { $0.map { "\($0)" } } ?? "no error")")
                throw error
            }
            #expect(account.subject == (try await client.idTokenClaims()).sub)
        }
    }

    @Test("resume after restart from the file store")

    func resumeAfterRestartFromTheFileStore() async throws {
        try await withServer { server in
            let directory = tempDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let key = SymmetricKey(size: .bits256)
            let store = try EncryptedFileCredentialStore(directory: directory, keySource: .key(key))
            let account = try await client(server, store: store).signIn(with: server.agent())

            // A new process: new store instance on the same directory, new client, no network.
            let transport = ObservingTransport()
            let reopened = try EncryptedFileCredentialStore(directory: directory, keySource: .key(key))
            let relaunched = client(server, store: reopened, transport: transport)
            #expect(await relaunched.restore() == account)
            #expect(await relaunched.accounts().map(\.id) == [account.id])
            _ = try await relaunched.validAccessToken()
            #expect(transport.state.withLock { $0.tokenRequests } == 0)
        }
    }

    @Test("a thousand concurrent callers cause one refresh")

    func thousandConcurrentCallersCauseOneRefresh() async throws {
        try await withServer { server in
            let clock = ManualClock(Date())
            let transport = ObservingTransport()
            let client = client(server, transport: transport, clock: clock)
            _ = try await client.signIn(with: server.agent())
            let before = try await client.validAccessToken()
            clock.advance(by: 3600)  // the 900 s access token has expired on the device clock
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<1000 { group.addTask { try await client.validAccessToken() } }
                var all = Set<String>()
                for try await token in group { all.insert(token) }
                return all
            }
            #expect(transport.state.withLock { $0.refreshRequests } == 1)
            #expect(tokens.count == 1)
            #expect(tokens.first != before)
            // The refreshed token works at the server.
            #expect(try await client.userInfo().sub == (try await client.idTokenClaims()).sub)
        }
    }

    @Test("refresh racing logout is discarded")

    func refreshRacingLogoutIsDiscarded() async throws {
        try await withServer { server in
            let clock = ManualClock(Date())
            let gate = Gate()
            let transport = ObservingTransport(refreshGate: gate)
            let store = InMemoryCredentialStore()
            let client = client(server, store: store, transport: transport, clock: clock)
            _ = try await client.signIn(with: server.agent())
            clock.advance(by: 3600)
            let refresh = Task { try await client.validAccessToken() }
            await gate.arrival()
            _ = try await client.logout(revoke: false)
            await gate.open()
            await #expect(throws: SesameError.self) { try await refresh.value }
            #expect(await client.accounts().isEmpty)
            #expect(await client.currentAccount() == nil)
            #expect(try await store.keys().filter { $0.hasPrefix("sesame.session.") }.isEmpty)
        }
    }

    @Test("unauthorized: refreshes and retries once")

    func unauthorizedRefreshesAndRetriesOnce() async throws {
        try await withServer { server in
            let transport = ObservingTransport()
            let client = client(server, transport: transport)
            _ = try await client.signIn(with: server.agent())
            let userinfo = try #require(try await client.metadata().userinfoEndpoint)
            // The sign-in read the account's name and email from userinfo once; count from here.
            transport.state.withLock {
                $0.bearersSent = []
                $0.spoilNextBearer = true
            }
            let (data, response) = try await client.data(for: URLRequest(url: userinfo))
            #expect(response.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("ada@example.com"))
            #expect(transport.state.withLock { $0.refreshRequests } == 1)
            let bearers = transport.state.withLock { $0.bearersSent }
            #expect(bearers.count == 2)
            #expect(bearers[0] != bearers[1])
        }
    }

    @Test("logout revokes at the server")

    func logoutRevokesAtTheServer() async throws {
        try await withServer { server in
            let transport = ObservingTransport()
            let store = InMemoryCredentialStore()
            let client = client(server, store: store, transport: transport)
            let account = try await client.signIn(with: server.agent())
            let sessionData = try #require(try await store.load("sesame.session.\(account.id)"))
            let stored = try JSONSerialization.jsonObject(with: sessionData) as? [String: Any]
            let refreshToken = try #require(stored?["refreshToken"] as? String)
            let result = try await client.logout(revoke: true)
            #expect(result.revoked)
            #expect(transport.state.withLock { $0.revocations } >= 1)
            #expect(await client.currentAccount() == nil)

            // The revoked refresh token no longer works at the token endpoint.
            let metadata = try await client.metadata()
            var request = URLRequest(url: metadata.tokenEndpoint)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(FormURLEncoding.encode([
                "grant_type": "refresh_token", "refresh_token": refreshToken,
                "client_id": IntegrationServer.clientID,
            ]).utf8)
            let (body, response) = try await URLSessionTransport().send(request)
            #expect(response.statusCode == 400)
            #expect(String(decoding: body, as: UTF8.self).contains("invalid_grant"))
        }
    }
}

/// A browser opener that drives the real login page and then visits the loopback redirect.
/// Plays the browser's part with a ``ScriptedBrowser`` in the background, as a browser the
/// agent opened would; keeps what went wrong for the test to report.
final class ScriptedOpener: BrowserOpener {
    let login: HostedLogin
    let failure = Mutex<(any Error)?>(nil)

    init(login: HostedLogin) { self.login = login }

    func open(_ url: URL) async throws {
        let login = self.login
        Task {
            do {
                let browser = ScriptedBrowser()
                let redirect = try await login.signIn(at: url, in: browser)
                _ = try await browser.get(redirect)
            } catch {
                self.failure.withLock { $0 = error }
            }
        }
    }
}
