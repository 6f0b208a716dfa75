import Foundation
import NIOCore

/// The reverse proxies (load balancers, TLS terminators) in front of the server, as CIDR
/// networks. Behind a proxy every TCP connection comes from the proxy, so ``LoginThrottle``
/// would count all clients as one address; for a connection from a trusted proxy the client is
/// read from `X-Forwarded-For` instead.
///
/// Only the right-most entries can be believed: each trusted proxy appends the address it saw,
/// while anything to the left may have been written by the client. So the list is read from the
/// right, trusted proxies are skipped, and the first address that is not a trusted proxy is the
/// client (the method of RFC 7239 §7.4 and of every common proxy's "real IP" module). An entry
/// that is not an IP address ends the walk and the last trusted hop is used: a client cannot
/// choose its key by sending garbage. Connections from other peers ignore the header entirely.
public struct TrustedProxies: Sendable, Equatable {
    public let networks: [IPNetwork]

    public static let none = TrustedProxies(networks: [])

    public init(networks: [IPNetwork]) {
        self.networks = networks
    }

    /// Parses `10.0.0.0/8`, `192.168.1.7` (a single host), `fd00::/8`, `::1`.
    public init(parsing specifications: [String]) throws(TrustedProxyError) {
        var networks: [IPNetwork] = []
        for specification in specifications {
            guard let network = IPNetwork(specification) else { throw TrustedProxyError(specification: specification) }
            networks.append(network)
        }
        self.init(networks: networks)
    }

    func trusts(_ address: [UInt8]) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// Whether the connection's `peer` is a trusted proxy (`false` for none or a Unix socket).
    func trusts(peer: SocketAddress?) -> Bool {
        guard !networks.isEmpty, let peer, let bytes = IPNetwork.bytes(of: peer) else { return false }
        return trusts(bytes)
    }

    /// The address to account a request to: the peer, or for a trusted peer the client named
    /// by `X-Forwarded-For` (all header lines, in order).
    func clientAddress(peer: SocketAddress?, forwardedFor: [String]) -> SocketAddress? {
        guard let peer, trusts(peer: peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in hops.reversed() {
            guard let address = IPNetwork.socketAddress(forwardedEntry: hop),
                let bytes = IPNetwork.bytes(of: address)
            else { return client }
            client = address
            if !trusts(bytes) { return address }
        }
        return client
    }
}

/// A `--trusted-proxy` value that is not an IP address or CIDR network.
public struct TrustedProxyError: Error, Sendable, CustomStringConvertible {
    public let specification: String
    public var description: String {
        "'\(specification)' is not an IP address or CIDR network; write e.g. 10.0.0.0/8, 192.168.1.7 or fd00::/8"
    }
}

/// An IPv4 or IPv6 network: address bytes and a prefix length. IPv4-mapped IPv6 addresses
/// (`::ffff:a.b.c.d`) match the IPv4 network.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    let prefix: [UInt8]
    let length: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let bytes = Self.parse(String(parts[0])) else { return nil }
        let maximum = bytes.count * 8
        let length: Int
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), (0...maximum).contains(parsed), parts[1].allSatisfy(\.isNumber) else {
                return nil
            }
            length = parsed
        } else {
            length = maximum
        }
        self.prefix = bytes
        self.length = length
    }

    public var description: String {
        let address = (try? SocketAddress(packedIPAddress: ByteBuffer(bytes: prefix), port: 0).ipAddress) ?? nil
        return "\(address ?? "?")/\(length)"
    }

    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == prefix.count else { return false }
        var remaining = length
        for index in 0..<prefix.count where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if address[index] & mask != prefix[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// IPv4 (4 bytes) or IPv6 (16 bytes); IPv4-mapped IPv6 as IPv4.
    static func parse(_ text: String) -> [UInt8]? {
        guard let address = try? SocketAddress(ipAddress: text, port: 0) else { return nil }
        return bytes(of: address)
    }

    /// The address bytes of an IP peer: 4 for IPv4 and IPv4-mapped IPv6, else 16; `nil` for
    /// Unix sockets.
    static func bytes(of address: SocketAddress) -> [UInt8]? {
        switch address {
        case .v4(let v4):
            return withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
                return Array(bytes[12..<16])
            }
            return bytes
        default:
            return nil
        }
    }

    /// One `X-Forwarded-For` entry: `203.0.113.7`, `203.0.113.7:4711`, `2001:db8::1` or
    /// `[2001:db8::1]:4711`.
    static func socketAddress(forwardedEntry entry: String) -> SocketAddress? {
        var host = entry
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            host = String(host[..<colon])
        }
        return try? SocketAddress(ipAddress: host, port: 0)
    }
}
