import NIOCore

/// The key by which per-address limits count a client (the password throttle, the mail quota,
/// the request rate limits): IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 as its /64 prefix
/// (one subscriber usually owns a whole /64); `nil` for Unix sockets or an unknown peer. The
/// address is the request's client address, behind trusted proxies the client they name.
enum ClientAddressKey {
    static func of(_ address: SocketAddress?) -> String? {
        guard let address, let bytes = IPNetwork.bytes(of: address) else { return nil }
        if bytes.count == 4 { return bytes.map { String($0) }.joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
