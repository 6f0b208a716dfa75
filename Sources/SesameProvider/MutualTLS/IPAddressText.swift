#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// IP addresses in text form, as a `tls_client_auth_san_ip` names one (RFC 8705 §2.1.2), read
/// into the bytes an `iPAddress` SAN entry holds (4 for IPv4, 16 for IPv6; RFC 5280 §4.2.1.6).
package enum IPAddressText {
    /// The address's bytes, or `nil` when `text` is not an IPv4 or IPv6 address.
    package static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
