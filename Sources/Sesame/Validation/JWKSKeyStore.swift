import Foundation
import Logging
import SesameJOSE

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Caches the provider's `JWKSet` and refetches it when a token names an unknown `kid`
/// (key rotation, OIDC Core §10.1.1), at most once per ``minimumRefetchInterval`` so a flood of
/// forged `kid`s cannot turn the client into a JWKS fetcher.
actor JWKSKeyStore {
    private let http: ProviderHTTP
    private let clock: any SesameClock
    private let logger: Logger
    let minimumRefetchInterval: TimeInterval
    private var cached: (uri: URL, keys: JWKSet)?
    private var lastRefetch: Date?

    init(http: ProviderHTTP, clock: any SesameClock, logger: Logger, minimumRefetchInterval: TimeInterval = 60) {
        self.http = http
        self.clock = clock
        self.logger = logger
        self.minimumRefetchInterval = minimumRefetchInterval
    }

    /// The cached keys for `uri`, fetched on first use.
    func keys(from uri: URL) async throws(SesameError) -> JWKSet {
        if let cached, cached.uri == uri { return cached.keys }
        return try await fetch(uri)
    }

    /// One refetch after an unknown `kid`; `nil` when rate-limited or the fetch failed.
    func refetchForUnknownKey(from uri: URL) async -> JWKSet? {
        let now = clock.now()
        if let lastRefetch, now.timeIntervalSince(lastRefetch) < minimumRefetchInterval {
            logger.debug("JWKS refetch skipped: rate limited")
            return nil
        }
        lastRefetch = now
        return try? await fetch(uri)
    }

    private func fetch(_ uri: URL) async throws(SesameError) -> JWKSet {
        var request = URLRequest(url: uri)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await http.send(request)
        guard (200..<300).contains(response.statusCode) else {
            throw ProviderHTTP.error(data: data, status: response.statusCode, what: "JWKS")
        }
        let keys: JWKSet
        do {
            keys = try JWKSet.parse(data)
        } catch {
            throw .technical(.malformedResponse(error.reason))
        }
        logger.debug("fetched JWKS", metadata: ["keys": "\(keys.count)"])
        cached = (uri, keys)
        return keys
    }
}
