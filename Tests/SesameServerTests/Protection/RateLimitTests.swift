import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import TestSupport
import Testing
@testable import SesameServer

/// Request rate limits (``RateLimitPolicy``): per client address by endpoint class, per client
/// at the token endpoints; 429 `rate_limited` with `Retry-After` and the IETF `RateLimit-Policy`
/// and `RateLimit` fields; another address is not bothered; memory stays bounded; several
/// processes on one PostgreSQL database share the counts.
@Suite("Request rate limits")
struct RateLimitTests {
    /// Sign-ups limited to 3 per hour per address; the proxy on loopback is trusted so a test can
    /// speak for other addresses with `X-Forwarded-For`.
    static let configure: @Sendable (inout ServerConfiguration) -> Void = {
        $0.rateLimits.perAddress[.accountCreation] = RateLimitPolicy.Limit(3, per: 3600)
        $0.trustedProxies = try! TrustedProxies(parsing: ["127.0.0.1"])
    }

    static func signUp(_ client: HTTPTestClient, _ index: Int, from address: String) async throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: [
            "client_id": Fixtures.nativeApp, "email": "flood\(index)@example.com", "password": "a long sign-up password",
        ])
        return try await client.post(
            "/api/signup", body: body, headers: ["Content-Type": "application/json", "X-Forwarded-For": address])
    }

    @Test("a sign-up flood from one address: 3 get through, the 4th is 429 with Retry-After and RateLimit fields, and sends no mail; another address is not bothered")
    func signUpFlood() async throws {
        try await withTestServer(configure: Self.configure) { server in
            // Counts are per aligned window: a frozen clock keeps the flood in one.
            server.clock.freeze()
            let client = server.client()
            var remaining: [String] = []
            for index in 0..<3 {
                let response = try await Self.signUp(client, index, from: "198.51.100.7")
                #expect(response.status == 201 || response.status == 200, "\(response.text)")
                #expect(response.header("RateLimit-Policy") == #""account_creation-address";q=3;w=3600"#)
                remaining.append(response.header("RateLimit") ?? "")
            }
            #expect(remaining.map { $0.components(separatedBy: ";")[1] } == ["r=2", "r=1", "r=0"])

            let refused = try await Self.signUp(client, 3, from: "198.51.100.7")
            #expect(refused.status == 429)
            let error = try refused.json(APIError.self)
            #expect(error.code == .rateLimited)
            let retryAfter = try #require(refused.header("Retry-After").flatMap(Int.init))
            #expect(retryAfter >= 1 && retryAfter <= 3600)
            #expect(refused.header("RateLimit")?.hasPrefix(#""account_creation-address";r=0;t="#) == true)
            let outbox = try #require(server.running.messageSender as? OutboxMessageSender)
            #expect(try await outbox.messages(to: "flood3@example.com", purpose: nil).isEmpty, "no mail past the limit")
            #expect(try await server.store.user(login: "flood3@example.com") == nil, "no account past the limit")

            // Another address, and another IPv6 /64, are not bothered; the same /64 is the same address.
            #expect(try await Self.signUp(client, 10, from: "203.0.113.9").status != 429)
            #expect(try await Self.signUp(client, 11, from: "2001:db8:1:1::1").status != 429)
            #expect(try await Self.signUp(client, 12, from: "2001:db8:1:1::2").status != 429)
            #expect(try await Self.signUp(client, 13, from: "2001:db8:1:1:ffff::3").status != 429)
            #expect(try await Self.signUp(client, 14, from: "2001:db8:1:1:abcd::4").status == 429)

            // The window ends: the address may sign up again.
            server.clock.advance(by: 3600)
            #expect(try await Self.signUp(client, 15, from: "198.51.100.7").status != 429)

            // The audit log has the first refusal of each key and window, not every refused request.
            _ = try await Self.signUp(client, 16, from: "203.0.113.9")
            await server.running.flushAuditLog()
            let log = server.store
            let limited = try await log.auditRecords(AuditQuery(events: ["rate_limit.exceeded"]))
            #expect(limited.map(\.clientAddress) == ["198.51.100.7", "2001:db8:1:1::/64"], "\(limited)")
            #expect(limited.allSatisfy { $0.reason == "account_creation-address" && $0.detail["limit"] == "3" })
            #expect(try await log.auditRecords(AuditQuery(events: ["account.created"])).count == 9)
        }
    }

    @Test("per client at the token endpoint: the third client_credentials request of a client limited to 2 is 429; routes without a limit carry no fields")
    func perClient() async throws {
        try await withTestServer(configure: { $0.rateLimits.perClient[.token] = RateLimitPolicy.Limit(2, per: 60) }) { server in
            // One window however slow the machine: the clock stands still.
            server.clock.freeze()
            let client = server.client()
            let form = ["grant_type": "client_credentials", "scope": "api.read"]
            let headers = HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret)
            #expect(try await client.postForm("/token", form, headers: headers).status == 200)
            #expect(try await client.postForm("/token", form, headers: headers).status == 200)
            let refused = try await client.postForm("/token", form, headers: headers)
            #expect(refused.status == 429)
            // An RFC 6749 section 5.2 error at an OAuth endpoint (slow_down belongs to device polling).
            #expect(try refused.json(APIError.self).error == "invalid_request")
            #expect(try refused.json(APIError.self).code == .tooManyTokenRequests)
            #expect(refused.header("RateLimit-Policy") == #""token-client";q=2;w=60"#)
            // Another client is counted apart.
            let other = try await client.postForm(
                "/token", ["grant_type": "refresh_token", "refresh_token": "unknown", "client_id": Fixtures.nativeApp])
            #expect(other.status == 400)
            #expect(try await client.get("/userinfo").header("RateLimit-Policy") == nil)
        }
    }

    @Test("the OpenAPI document names the 429 of every limited endpoint")
    func documented() async throws {
        try await withTestServer { server in
            let document = try await server.client().get("/api/openapi.json")
            let json = try #require(try JSONSerialization.jsonObject(with: document.body) as? [String: Any])
            let paths = try #require(json["paths"] as? [String: [String: Any]])
            for (path, method) in [("/api/signup", "post"), ("/.well-known/openid-configuration", "get"), ("/api/password/reset", "post")] {
                let operation = try #require(paths[path]?[method] as? [String: Any], "\(method) \(path)")
                let responses = try #require(operation["responses"] as? [String: Any])
                #expect(responses["429"] != nil, "\(method) \(path) documents 429")
            }
        }
    }

    @Test("a flood of 20,000 distinct addresses keeps at most the configured number of keys; a heavy sender stays counted")
    func boundedMemory() async {
        let clock = ManualClock()
        clock.freeze()  // one aligned window: the flood takes seconds on a loaded machine
        let limiter = RateLimiter(
            policy: RateLimitPolicy(maximumTrackedKeys: 1000), now: { clock.now() }, shared: nil,
            logger: .init(label: "test"))
        let limit = RateLimitPolicy.Limit(50, per: 60)
        for _ in 0..<50 { _ = await limiter.admit("heavy", limit: limit) }
        for index in 0..<20_000 { _ = await limiter.admit("address-\(index)", limit: limit) }
        #expect(limiter.trackedKeyCount <= 1000)
        guard case .refused = await limiter.admit("heavy", limit: limit) else {
            Issue.record("the heavy sender was forgotten by the eviction")
            return
        }
    }

    @Test("admitInMemory counts as admit does; over the limit, or a window new to a process that shares counts, it decides nothing and counts nothing")
    func inMemory() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))  // a window's start: resets in 60 s
        let limit = RateLimitPolicy.Limit(3, per: 60)
        let local = RateLimiter(policy: RateLimitPolicy(), now: { clock.now() }, shared: nil, logger: .init(label: "test"))
        #expect(local.admitInMemory("a", limit: limit) == .admitted(remaining: 2, reset: 60))
        #expect(await local.admit("a", limit: limit) == .admitted(remaining: 1, reset: 60))
        #expect(local.admitInMemory("a", limit: limit) == .admitted(remaining: 0, reset: 60))
        #expect(local.admitInMemory("a", limit: limit) == nil)
        // The refusal the caller then asks for is still the window's first (it is audited).
        #expect(await local.admit("a", limit: limit) == .refused(retryAfter: 60, first: true))

        let sandbox = try StoreSandbox.make()
        let store = try await sandbox.open()
        let shared = RateLimiter(policy: RateLimitPolicy(), now: { clock.now() }, shared: store, logger: .init(label: "test"))
        #expect(shared.admitInMemory("b", limit: limit) == nil)
        #expect(await shared.admit("b", limit: limit) == .admitted(remaining: 2, reset: 60))
        #expect(shared.admitInMemory("b", limit: limit) == .admitted(remaining: 1, reset: 60))
        try await store.close()
    }

    @Test("a process that shares counts decides in memory only from a fresh count of the others; a quiet key's next request reads the store again")
    func staleCountsGoToTheStore() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))  // a window's start
        let limit = RateLimitPolicy.Limit(3, per: 60)
        let sandbox = try StoreSandbox.make()
        let store = try await sandbox.open()
        let first = RateLimiter(policy: RateLimitPolicy(), now: { clock.now() }, shared: store, logger: .init(label: "a"))
        let second = RateLimiter(policy: RateLimitPolicy(), now: { clock.now() }, shared: store, logger: .init(label: "b"))
        #expect(await first.admit("k", limit: limit) == .admitted(remaining: 2, reset: 60))
        #expect(await second.admit("k", limit: limit) == .admitted(remaining: 1, reset: 60))
        // Within `freshness` the first decides from what it knew (the documented overshoot).
        #expect(first.admitInMemory("k", limit: limit) == .admitted(remaining: 1, reset: 60))
        // Three seconds later its count of the others is stale: nothing is decided in memory,
        // and `admit` reads the store, which holds the second's request; the first's own
        // unsynchronized one counts too, so this fourth request of the window is refused.
        clock.advance(by: 3)
        #expect(first.freshness < 3)
        #expect(first.admitInMemory("k", limit: limit) == nil)
        #expect(await first.admit("k", limit: limit) == .refused(retryAfter: 57, first: true))
        // Now fresh, and full: refused in memory as well.
        #expect(first.admitInMemory("k", limit: limit) == nil)
        #expect(await first.admit("k", limit: limit) == .refused(retryAfter: 57, first: false))
        try await store.close()
    }

    @Test(
        "two servers on one PostgreSQL database share the counts (within a second)",
        .enabled(if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired, "no PostgreSQL here; CI runs this"))
    func sharedAcrossServers() async throws {
        try await withTestServer(.postgres, configure: Self.configure) { first in
            first.clock.freeze()  // one aligned window for the whole test (the sibling shares the clock)
            let second = try await first.sibling()
            defer { Task { try? await second.stop() } }
            let one = first.portClient()
            let two = second.portClient()
            // Two sign-ups at the first server, one at the second: together the limit of 3.
            #expect(try await Self.signUp(one, 0, from: "198.51.100.20").status != 429)
            #expect(try await Self.signUp(one, 1, from: "198.51.100.20").status != 429)
            #expect(try await Self.signUp(two, 2, from: "198.51.100.20").status != 429)
            // Once both have shared their counts, neither admits a fourth.
            var index = 3
            let refusedAtSecond = try await eventually {
                index += 1
                return try await Self.signUp(two, index, from: "198.51.100.20").status == 429
            }
            #expect(refusedAtSecond)
            #expect(index <= 5, "the second server admitted \(index - 4) more than the shared limit")
            // (Its first request of the window read the first server's count at once.)
            // The first server learns the second's count too (it stays at half its limit or
            // more, so it keeps asking), and refuses.
            var extraAtFirst = -1
            let refusedAtFirst = try await eventually {
                extraAtFirst += 1
                return try await Self.signUp(one, 100 + extraAtFirst, from: "198.51.100.20").status == 429
            }
            #expect(refusedAtFirst)
            #expect(extraAtFirst <= 1, "the first server admitted \(extraAtFirst) more than the shared limit")
        }
    }
}
