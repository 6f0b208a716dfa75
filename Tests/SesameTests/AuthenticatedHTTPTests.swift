import TestSupport
import Foundation
import Logging
import SesameProtocol
import Synchronization
import Testing

@testable import Sesame

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Authenticated HTTP, userinfo, logout")
struct AuthenticatedHTTPTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))

    @Test("bearer token is added for allowed origins")

    func bearerTokenIsAddedForAllowedOrigins() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider))
        let (_, response) = try await client.data(for: URLRequest(url: URL(string: "https://api.test/me")!))
        #expect(response.statusCode == 200)
        let sent = provider.with { $0.resourceTokens }
        #expect(sent.count == 1)
        #expect(try sent.first == (await client.validAccessToken()))
    }

    @Test("unauthorized: refreshes once and retries once")

    func unauthorizedRefreshesOnceAndRetriesOnce() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider))
        let first = try await client.validAccessToken()
        provider.with { $0.rejectResourceRequests = 1 }
        let (_, response) = try await client.data(for: URLRequest(url: URL(string: "https://api.test/me")!))
        #expect(response.statusCode == 200)
        let sent = provider.with { $0.resourceTokens }
        #expect(sent.count == 2)
        #expect(sent.first == first)
        #expect(sent.last != first)
        #expect(provider.with { $0.refreshRequests } == 1)
    }

    @Test("persistent unauthorized is returned after one retry")

    func persistentUnauthorizedIsReturnedAfterOneRetry() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider))
        provider.with { $0.rejectResourceRequests = 10 }  // the API keeps refusing
        let (_, response) = try await client.data(for: URLRequest(url: URL(string: "https://api.test/me")!))
        #expect(response.statusCode == 401)
        #expect(provider.with { $0.resourceTokens.count } == 2)
        #expect(provider.with { $0.refreshRequests } == 1)
    }

    @Test("step up challenge is an event not a refresh")

    func stepUpChallengeIsAnEventNotARefresh() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        let account = try await client.signIn(with: headlessAgent(provider))
        let events = client.events()
        provider.with { $0.requireStepUp = true }
        let (_, response) = try await client.data(for: URLRequest(url: URL(string: "https://api.test/pay")!))
        #expect(response.statusCode == 401)
        #expect(provider.with { $0.refreshRequests } == 0)
        var iterator = events.makeAsyncIterator()
        guard case .stepUpRequired(let who, let apiError) = await iterator.next() else {
            Issue.record("expected stepUpRequired")
            return
        }
        #expect(who?.id == account.id)
        #expect(apiError.error == "insufficient_user_authentication")
    }

    @Test("token is never sent to a foreign origin")

    func tokenIsNeverSentToAForeignOrigin() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider))
        let before = provider.with { $0.requests.count }
        for url in ["https://evil.test/steal", "http://api.test/me", "https://api.test:8443/me"] {
            do {
                _ = try await client.data(for: URLRequest(url: URL(string: url)!))
                Issue.record("request to \(url) was sent")
            } catch {
                guard case .invalidConfiguration(let message) = error.reason else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(message.contains("allowed_origins"))
            }
        }
        #expect(provider.with { $0.requests.count } == before)
    }

    @Test("userinfo subject must match")

    func userInfoSubjectMustMatch() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider))
        #expect(try await client.userInfo().email == "ada@example.com")
        provider.with { $0.userinfoSub = "someone-else" }
        do {
            _ = try await client.userInfo()
            Issue.record("mismatched userinfo sub accepted")
        } catch {
            #expect(error.rule == .userInfoSubject)
        }
    }

    @Test("logout forgets locally and revokes")

    func logoutForgetsLocallyAndRevokes() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        let account = try await client.signIn(with: headlessAgent(provider))
        let access = try await client.validAccessToken()
        let endSession = try #require(
            try await client.endSessionURL(postLogoutRedirectURI: URL(string: "com.example.app:/bye"), state: "s1"))
        let query = URLComponents(url: endSession, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.contains { $0.name == "id_token_hint" })
        #expect(query.contains { $0.name == "post_logout_redirect_uri" && $0.value == "com.example.app:/bye" })
        let result = try await client.logout()
        #expect(result.revoked)
        #expect(result.account == account)
        let revoked = provider.with { $0.revoked }
        #expect(revoked.count == 2)
        #expect(revoked.contains(access))
        #expect(revoked.contains { $0.hasPrefix("rt-") })
        #expect(await client.accounts().isEmpty)
    }

    @Test("logout with failing revocation still forgets locally")

    func logoutWithFailingRevocationStillForgetsLocally() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider))
        let failing = FailingRevocation(inner: provider)
        let offline = SesameClient(
            configuration: provider.configuration, store: InMemoryCredentialStore(), transport: failing,
            clock: clock, logger: Logger(label: "test"), retryPolicy: .none)
        _ = try await offline.signIn(with: headlessAgent(provider))
        let result = try await offline.logout()
        #expect(result.revoked == false)
        #expect(result.revocationError != nil)
        #expect(await offline.currentAccount() == nil)
    }

    @Test("logs never contain secrets")

    func logsNeverContainSecrets() async throws {
        let capture = LogCapture()
        let logger = Logger(label: "sesame-test") { _ in CapturingLogHandler(capture: capture) }
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock, logger: logger)
        _ = try await client.signIn(with: headlessAgent(provider))
        clock.advance(by: 7200)
        let access = try await client.validAccessToken()
        provider.with { $0.refreshFailures = [400] }
        clock.advance(by: 7200)
        _ = try? await client.validAccessToken()
        let lines = capture.lines
        #expect(!lines.isEmpty)
        let secrets = provider.with { s in Array(s.accessTokens) + Array(s.refreshTokens) } + [access]
        for line in lines {
            for secret in secrets { #expect(!line.contains(secret), "secret in log line: \(line)") }
            #expect(!line.contains("eyJ"), "JWT in log line: \(line)")
        }
    }
}

/// Passes everything through except revocation, which fails with a network error.
struct FailingRevocation: HTTPTransport {
    let inner: FakeProvider
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if request.url?.path == "/revoke" { throw URLError(.notConnectedToInternet) }
        return try await inner.send(request)
    }
}

final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        capture.append("\(event.level) \(event.message) \(merged)")
    }
}
