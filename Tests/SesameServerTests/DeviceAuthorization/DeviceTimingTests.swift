import Foundation
import SesameProtocol
import SesameServer
import SesameTesting
import Testing

/// The device grant's timing is the operator's (issue #44, RFC 8628 §3.2): the server's code
/// lifetime and polling interval, a client's own when it has them, end to end to `expired_token`;
/// and a rate-limited `/device_authorization` answers an RFC 6749 §5.2 error, not `slow_down`
/// (which belongs to polling, §3.5).
@Suite("Device grant timing and limits")
struct DeviceTimingTests {
    @Test("the server's lifetime and interval, then a client's own; a code past its lifetime polls expired_token")
    func timing() async throws {
        try await withTestServer(configure: {
            $0.deviceAuthorization.lifetime = 120
            $0.deviceAuthorization.interval = 7
        }) { server in
            try await DeviceFlow.registerTV(on: server)
            let flow = DeviceFlow(device: server.client())
            let serverWide = try await flow.codes()
            #expect(serverWide.expiresIn == 120 && serverWide.interval == 7)

            try await DeviceFlow.registerTV(on: server) {
                $0.deviceCodeLifetime = 30
                $0.devicePollInterval = 2
            }
            let own = try await flow.codes()
            #expect(own.expiresIn == 30 && own.interval == 2)
            let pending = try await flow.poll(own.deviceCode)
            #expect(DeviceFlow.error(pending) == "authorization_pending", "\(pending.text)")
            server.clock.advance(by: 31)
            let expired = try await flow.poll(own.deviceCode)
            #expect(expired.status == 400 && DeviceFlow.error(expired) == "expired_token", "\(expired.text)")
            // The server-wide code of before lives on (120 s).
            #expect(DeviceFlow.error(try await flow.poll(serverWide.deviceCode)) != "expired_token")
        }
    }

    @Test("client registration checks the timing: in range, and only with the device grant")
    func registration() async throws {
        try await withTestServer { server in
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            for (lifetime, interval) in [(0, nil), (86_401, nil), (nil, 0), (nil, 301), (Int.max, nil)] as [(Int?, Int?)] {
                var spec = ClientSpec(clientID: "tv-\(lifetime ?? -1)-\(interval ?? -1)", grantTypes: [.deviceCode])
                spec.deviceCodeLifetime = lifetime
                spec.devicePollInterval = interval
                await #expect(throws: AdminError.self, "\(String(describing: lifetime)) \(String(describing: interval))") {
                    _ = try await admin.addClient(spec)
                }
            }
            var browserOnly = ClientSpec(clientID: "web", redirectURIs: ["https://web.example.com/cb"])
            browserOnly.deviceCodeLifetime = 60
            await #expect(throws: AdminError.self) { _ = try await admin.addClient(browserOnly) }
            var tv = ClientSpec(clientID: "tv", grantTypes: [.deviceCode])
            tv.deviceCodeLifetime = 60
            tv.devicePollInterval = 10
            let (record, _) = try await admin.addClient(tv)
            let stored = try #require(try await server.store.client(id: record.clientID))
            #expect(stored.deviceCodeLifetime == 60 && stored.devicePollInterval == 10, "the store keeps them")
        }
    }

    @Test("a rate-limited /device_authorization answers 429 invalid_request with Retry-After, never slow_down")
    func rateLimited() async throws {
        try await withTestServer(configure: { $0.rateLimits.perAddress[.token] = RateLimitPolicy.Limit(2, per: 60) }) { server in
            try await DeviceFlow.registerTV(on: server)
            let flow = DeviceFlow(device: server.client())
            _ = try await flow.codes()
            _ = try await flow.codes()
            let limited = try await flow.start()
            #expect(limited.status == 429)
            #expect(DeviceFlow.error(limited) == "invalid_request", "\(limited.text)")
            #expect(limited.jsonObject["error_code"] as? Int == APIErrorCode.tooManyTokenRequests.rawValue)
            #expect(limited.header("Retry-After") != nil)
        }
    }
}
