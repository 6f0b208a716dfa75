import TestSupport
import Foundation
import Logging
import SesameProtocol
import Testing

@testable import Sesame

@Suite("Sessions and refresh")
struct SessionTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))

    func signedIn(_ provider: FakeProvider, store: any CredentialStore = InMemoryCredentialStore())
        async throws -> (SesameClient, Account)
    {
        let client = makeClient(provider, store: store, clock: clock)
        let account = try await client.signIn(with: headlessAgent(provider))
        return (client, account)
    }

    @Test("fresh token needs no refresh")

    func freshTokenNeedsNoRefresh() async throws {
        let provider = FakeProvider(clock: clock)
        let (client, _) = try await signedIn(provider)
        let token = try await client.validAccessToken()
        #expect(provider.with { $0.accessTokens.contains(token) })
        #expect(provider.with { $0.refreshRequests } == 0)
    }

    @Test("a thousand concurrent callers share one refresh")

    func thousandConcurrentCallersShareOneRefresh() async throws {
        let provider = FakeProvider(clock: clock)
        let (client, account) = try await signedIn(provider)
        let old = try await client.validAccessToken()
        clock.advance(by: 3600)  // expired
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1000 { group.addTask { try await client.validAccessToken() } }
            var all = Set<String>()
            for try await token in group { all.insert(token) }
            return all
        }
        #expect(provider.with { $0.refreshRequests } == 1)
        #expect(tokens.count == 1)
        #expect(tokens.first != old)
        #expect(provider.with { $0.accessTokens.contains(tokens.first ?? "") })
        #expect(await client.currentAccount()?.id == account.id)
    }

    @Test("refresh ahead of expiry")

    func refreshAheadOfExpiry() async throws {
        let provider = FakeProvider(clock: clock)
        let (client, _) = try await signedIn(provider)
        clock.advance(by: 3600 - 30)  // inside the 60 s refresh-ahead window
        _ = try await client.validAccessToken()
        #expect(provider.with { $0.refreshRequests } == 1)
    }

    @Test("rotated refresh token is persisted before the token is returned")

    func rotatedRefreshTokenIsPersistedBeforeTheTokenIsReturned() async throws {
        let provider = FakeProvider(clock: clock)
        let store = InMemoryCredentialStore()
        let (client, account) = try await signedIn(provider, store: store)
        clock.advance(by: 7200)
        let token = try await client.validAccessToken()
        let data = try #require(try await store.load(StoreKeys.session(account.id)))
        let stored = try JSONDecoder().decode(StoredSession.self, from: data)
        #expect(stored.accessToken == token)
        let refreshToken = try #require(stored.refreshToken)
        #expect(provider.with { $0.refreshTokens.contains(refreshToken) })
    }

    @Test("refresh racing logout is discarded")

    func refreshRacingLogoutIsDiscarded() async throws {
        let provider = FakeProvider(clock: clock)
        let store = InMemoryCredentialStore()
        let (client, account) = try await signedIn(provider, store: store)
        let gate = Gate()
        provider.with { $0.refreshGate = gate }
        clock.advance(by: 7200)
        let refresh = Task { try await client.validAccessToken() }
        await gate.arrival()  // the refresh request is at the server
        _ = try await client.logout(revoke: false)
        await gate.open()
        do {
            _ = try await refresh.value
            Issue.record("a refresh finishing after logout returned a token")
        } catch {
            #expect((error as? SesameError).map { if case .noSession = $0 { true } else { false } } == true)
        }
        #expect(await client.accounts().isEmpty)
        #expect(await client.currentAccount() == nil)
        #expect(try await store.load(StoreKeys.session(account.id)) == nil)
    }

    @Test("invalid grant ends the session with an event")

    func invalidGrantEndsTheSessionWithAnEvent() async throws {
        let provider = FakeProvider(clock: clock)
        let (client, account) = try await signedIn(provider)
        let events = client.events()
        provider.with { $0.refreshFailures = [400] }
        clock.advance(by: 7200)
        do {
            _ = try await client.validAccessToken()
            Issue.record("expected invalid_grant")
        } catch {
            guard case .authenticationFailed(let apiError, _) = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(apiError.error == "invalid_grant")
        }
        #expect(await client.accounts().isEmpty)
        for await event in events {
            if case .signedOut(let gone, let reason) = event {
                #expect(gone.id == account.id)
                #expect(reason == .refreshTokenRejected)
                break
            }
        }
    }

    @Test("transient failures are retried and keep the session")

    func transientFailuresAreRetriedAndKeepTheSession() async throws {
        let provider = FakeProvider(clock: clock)
        let (client, account) = try await signedIn(provider)
        clock.advance(by: 7200)
        provider.with { $0.refreshFailures = [503, 503, 503] }  // more than the 2 retries
        do {
            _ = try await client.validAccessToken()
            Issue.record("expected a technical error")
        } catch {
            guard case .technical(.server(let status, _)) = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(status == 503)
        }
        #expect(provider.with { $0.refreshRequests } == 3)
        #expect(await client.currentAccount()?.id == account.id)
        // Recovered: a later call refreshes successfully (one 503 is retried).
        provider.with { $0.refreshFailures = [503] }
        _ = try await client.validAccessToken()
        #expect(provider.with { $0.refreshRequests } == 5)
    }

    @Test("restore after restart without network")

    func restoreAfterRestartWithoutNetwork() async throws {
        let provider = FakeProvider(clock: clock)
        let store = InMemoryCredentialStore()
        let (_, account) = try await signedIn(provider, store: store)
        let requestsBefore = provider.with { $0.requests.count }
        let relaunched = makeClient(provider, store: store, clock: clock)
        #expect(await relaunched.restore() == account)
        #expect(try await relaunched.idTokenClaims().sub == "user-1")
        _ = try await relaunched.validAccessToken()
        #expect(provider.with { $0.requests.count } == requestsBefore)
    }

    @Test("several accounts most recently used first")

    func severalAccountsMostRecentlyUsedFirst() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        let ada = try await client.signIn(with: headlessAgent(provider))
        provider.with { $0.subject = "user-2" }
        clock.advance(by: 10)
        let bob = try await client.signIn(with: headlessAgent(provider))
        #expect(await client.accounts().map(\.id) == [bob.id, ada.id])
        #expect(await client.currentAccount()?.id == bob.id)
        try await client.switchAccount(to: ada.id)
        #expect(await client.accounts().map(\.id) == [ada.id, bob.id])
        #expect(await client.currentAccount()?.id == ada.id)
        let bobToken = try await client.validAccessToken(for: bob.id)
        let adaToken = try await client.validAccessToken()
        #expect(bobToken != adaToken)
        await #expect(throws: SesameError.self) { try await client.switchAccount(to: "nobody") }
    }

    @Test("corrupt record is repaired and reported")

    func corruptRecordIsRepairedAndReported() async throws {
        let store = InMemoryCredentialStore()
        let provider = FakeProvider(clock: clock)
        let (_, account) = try await signedIn(provider, store: store)
        try await store.save(Data("{not json".utf8), for: StoreKeys.session(account.id))
        let relaunched = makeClient(provider, store: store, clock: clock)
        let events = relaunched.events()
        #expect(await relaunched.restore() == nil)
        var iterator = events.makeAsyncIterator()
        guard case .storeRepaired(let key, _) = await iterator.next() else {
            Issue.record("expected storeRepaired")
            return
        }
        #expect(key == StoreKeys.session(account.id))
        #expect(try await store.load(key) == nil)
    }

    @Test("no session without sign in")

    func noSessionWithoutSignIn() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        do {
            _ = try await client.validAccessToken()
            Issue.record("expected noSession")
        } catch {
            guard case .noSession = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }
}

/// A store whose removals fail (a full disk, a locked keychain), for the best-effort writes of
/// ``SessionRegistry``.
struct RemovalFailingStore: CredentialStore {
    let inner = InMemoryCredentialStore()
    func load(_ key: String) async throws(CredentialStoreError) -> Data? { try await inner.load(key) }
    func save(_ data: Data, for key: String) async throws(CredentialStoreError) { try await inner.save(data, for: key) }
    func remove(_ key: String) async throws(CredentialStoreError) { throw .unavailable("the disk is full") }
    func keys() async throws(CredentialStoreError) -> [String] { try await inner.keys() }
}

@Suite("Session store failures are logged, never dropped")
struct SessionStoreFailureTests {
    @Test("a logout whose record cannot be removed still signs out, and the log says what failed")
    func failedRemovalIsLogged() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))
        let capture = LogCapture()
        let logger = Logger(label: "sesame-test") { _ in CapturingLogHandler(capture: capture) }
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, store: RemovalFailingStore(), clock: clock, logger: logger)
        _ = try await client.signIn(with: headlessAgent(provider))
        _ = try await client.logout(revoke: false)
        #expect(await client.accounts().isEmpty)
        #expect(capture.lines.contains { $0.contains("could not remove a session record") && $0.contains("the disk is full") })
    }
}

extension SessionStoreFailureTests {
    @Test("an undecodable record that cannot be removed is reported and logged, and the client starts empty")
    func undecodableRecordRemovalIsLogged() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))
        let capture = LogCapture()
        let logger = Logger(label: "sesame-test") { _ in CapturingLogHandler(capture: capture) }
        let store = RemovalFailingStore()
        try await store.save(Data("not json".utf8), for: StoreKeys.index)
        let client = makeClient(FakeProvider(clock: clock), store: store, clock: clock, logger: logger)
        #expect(await client.accounts().isEmpty)
        #expect(capture.lines.contains { $0.contains("could not remove an undecodable record") && $0.contains("the disk is full") })
    }
}
