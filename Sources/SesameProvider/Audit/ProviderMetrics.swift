/// The counters the provider's logic moves, for the server's `/metrics` to export; the
/// provider knows no metrics library.
package protocol ProviderMetrics: Sendable {
    /// A rotated refresh token was presented again and its family revoked (RFC 9700 §4.14.2).
    func refreshTokenReuse()
}
