import Foundation
import NIOCore
import Testing
@testable import SesameServer

/// The key a client's address is counted under (the login throttle's per-address limit, the
/// request rate limits), and the server's default throttle policy.
@Suite("Client address keys")
struct ClientAddressKeyTests {
    @Test("address keys: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by /64, none for Unix sockets")
    func addressKeys() throws {
        #expect(ClientAddressKey.of(try SocketAddress(ipAddress: "203.0.113.7", port: 443)) == "203.0.113.7")
        #expect(
            ClientAddressKey.of(try SocketAddress(ipAddress: "2001:db8:a:b:1:2:3:4", port: 443))
                == "2001:db8:a:b::/64")
        #expect(
            ClientAddressKey.of(try SocketAddress(ipAddress: "2001:db8:a:b:ffff::9", port: 1))
                == ClientAddressKey.of(try SocketAddress(ipAddress: "2001:db8:a:b::1", port: 2)),
            "one /64, one key")
        let mapped = try SocketAddress(ipAddress: "::ffff:203.0.113.7", port: 443)
        #expect(ClientAddressKey.of(mapped) == "203.0.113.7")
        #expect(ClientAddressKey.of(try SocketAddress(unixDomainSocketPath: "/tmp/sesame.sock")) == nil)
        #expect(ClientAddressKey.of(nil) == nil)
    }

    @Test("a server configured with nothing uses the default login throttle policy")
    func defaultPolicy() {
        let configuration = ServerConfiguration(dataDirectory: DataDirectory(url: URL(fileURLWithPath: "/tmp/x")))
        #expect(configuration.loginThrottle == LoginThrottlePolicy())
    }
}
