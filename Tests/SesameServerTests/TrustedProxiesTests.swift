import SesameTesting
import Foundation
import NIOCore
import SesameProtocol
import Testing
@testable import SesameServer

/// The client address behind reverse proxies (`TrustedProxies`, `ForwardedClientMiddleware`):
/// parsing, the right-to-left walk of `X-Forwarded-For`, and password throttling per forwarded
/// client against the real server.
@Suite("Trusted proxies and X-Forwarded-For")
struct TrustedProxiesTests {
    static func address(_ text: String) throws -> SocketAddress { try SocketAddress(ipAddress: text, port: 4711) }

    @Test("CIDR networks and single hosts parse; anything else is a clear error")
    func parsing() throws {
        let proxies = try TrustedProxies(parsing: ["10.0.0.0/8", "192.168.1.7", "fd00::/8", "::1"])
        #expect(proxies.networks.map(\.description) == ["10.0.0.0/8", "192.168.1.7/32", "fd00::/8", "::1/128"])
        for bad in ["10.0.0.0/33", "10.0.0/8", "example.com", "10.0.0.0/", "10.0.0.0/8/1", "fd00::/129", "10.0.0.0/+8", ""] {
            #expect(throws: TrustedProxyError.self, "\(bad)") { try TrustedProxies(parsing: [bad]) }
        }
        do {
            _ = try TrustedProxies(parsing: ["proxy.local"])
        } catch {
            #expect(error.description.contains("'proxy.local' is not an IP address or CIDR network"))
        }
    }

    @Test("network membership, including IPv4-mapped IPv6 peers")
    func membership() throws {
        let proxies = try TrustedProxies(parsing: ["10.1.0.0/16", "2001:db8::/32"])
        #expect(proxies.trusts(try #require(IPNetwork.parse("10.1.255.3"))))
        #expect(!proxies.trusts(try #require(IPNetwork.parse("10.2.0.1"))))
        #expect(proxies.trusts(try #require(IPNetwork.parse("::ffff:10.1.0.9"))))
        #expect(proxies.trusts(try #require(IPNetwork.parse("2001:db8:ffff::1"))))
        #expect(!proxies.trusts(try #require(IPNetwork.parse("2001:db9::1"))))
    }

    @Test("X-Forwarded-For is read right to left, only from a trusted peer, skipping trusted hops")
    func forwardedWalk() throws {
        let proxies = try TrustedProxies(parsing: ["10.0.0.0/8"])
        let proxy = try Self.address("10.0.0.2")
        func client(_ peer: SocketAddress, _ headers: [String]) -> String? {
            proxies.clientAddress(peer: peer, forwardedFor: headers)?.ipAddress
        }
        // The client may prepend anything; the proxy appended the address it saw.
        #expect(client(proxy, ["6.6.6.6, 203.0.113.9"]) == "203.0.113.9")
        // Several trusted hops, and several header lines.
        #expect(client(proxy, ["198.51.100.4", "10.9.9.9, 10.0.0.3"]) == "198.51.100.4")
        // Ports and brackets.
        #expect(client(proxy, ["203.0.113.9:55123"]) == "203.0.113.9")
        #expect(client(proxy, ["[2001:db8::7]:443"]) == "2001:db8::7")
        // Garbage ends the walk at the last trusted hop: the client cannot pick its own key.
        #expect(client(proxy, ["203.0.113.9, unknown"]) == "10.0.0.2")
        #expect(client(proxy, ["203.0.113.9, nonsense, 10.0.0.7"]) == "10.0.0.7")
        // No header: the proxy itself.
        #expect(client(proxy, []) == "10.0.0.2")
        // A peer that is not a trusted proxy: the header is ignored.
        #expect(client(try Self.address("203.0.113.50"), ["1.2.3.4"]) == "203.0.113.50")
        // No proxies configured: always the peer.
        #expect(TrustedProxies.none.clientAddress(peer: proxy, forwardedFor: ["1.2.3.4"])?.ipAddress == "10.0.0.2")
    }

    @Test("behind a trusted proxy, password failures count per forwarded client, not per proxy")
    func throttlesPerForwardedClient() async throws {
        try await withTestServer(configure: { configuration in
            configuration.loginThrottle.failuresPerAddress = 3
            configuration.trustedProxies = .init(networks: [IPNetwork("127.0.0.0/8")!, IPNetwork("::1")!])
        }) { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            let attacker = ["X-Forwarded-For": "203.0.113.66"]
            for name in ["a1", "a2", "a3"] {
                let response = try await flow.start(username: name, password: "wrong password", headers: attacker)
                #expect(response.status == 400, "\(response.text)")
            }
            #expect(try await flow.start(username: "a4", password: "wrong password", headers: attacker).status == 429)
            // Another client behind the same proxy signs in.
            #expect(try await flow.start(headers: ["X-Forwarded-For": "198.51.100.20"]).status == 200)
        }
    }

    @Test("without trusted proxies, X-Forwarded-For cannot dodge the address limit")
    func headerIgnoredByDefault() async throws {
        try await withTestServer(configure: { $0.loginThrottle.failuresPerAddress = 3 }) { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            for (index, name) in ["a1", "a2", "a3"].enumerated() {
                let headers = ["X-Forwarded-For": "203.0.113.\(index + 1)"]
                let response = try await flow.start(username: name, password: "wrong password", headers: headers)
                #expect(response.status == 400)
            }
            let refused = try await flow.start(headers: ["X-Forwarded-For": "198.51.100.20"])
            #expect(refused.status == 429)
        }
    }
}
