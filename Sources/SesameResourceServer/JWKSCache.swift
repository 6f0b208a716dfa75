import Foundation
import SesameJOSE
import SesameProtocol

/// The issuer's signing keys, fetched once and kept (RFC 9068 §4 step 5: the keys come from the
/// issuer's `jwks_uri`). Refreshed when older than ``maximumAge``; refetched at once when a token
/// names a `kid` the set lacks (key rotation), at most once per ``minimumRefetchInterval`` so a
/// flood of forged `kid`s cannot turn the API into a JWKS fetcher. Concurrent requests share one
/// fetch. When a refresh fails, the keys already held stay in use.
public actor JWKSCache {
    /// Where the keys come from: a known `jwks_uri`, or the issuer's discovery document.
    enum Location: Sendable {
        case jwksURI(URL)
        case discovery(issuer: String)
    }

    private let location: Location
    private let transport: any KeySetTransport
    private let now: @Sendable () -> Date
    /// How long fetched keys are used before they are refreshed.
    public let maximumAge: TimeInterval
    /// The shortest time between two fetches caused by unknown `kid`s.
    public let minimumRefetchInterval: TimeInterval
    private var resolvedJWKSURI: URL?
    /// The keys held and when they were fetched, readable without entering the actor: the
    /// validation hot path reads them under a lock (an actor hop would cost as much as the rest
    /// of the validation).
    private nonisolated let current = LockedState<(keys: JWKSet, fetchedAt: Date)?>(nil)
    private var lastUnknownKeyFetch: Date?
    private var inFlight: Task<JWKSet, any Error>?

    /// Keys from a known `jwks_uri`.
    public init(
        jwksURI: URL, transport: any KeySetTransport = URLSessionKeySetTransport(),
        maximumAge: TimeInterval = 3600, minimumRefetchInterval: TimeInterval = 30,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(
            location: .jwksURI(jwksURI), transport: transport, maximumAge: maximumAge,
            minimumRefetchInterval: minimumRefetchInterval, now: now)
    }

    /// Keys from the `jwks_uri` of the issuer's discovery document
    /// (`<issuer>/.well-known/openid-configuration`), whose `issuer` must equal `issuer` exactly
    /// (OpenID Connect Discovery §4.3).
    public init(
        discoveringFrom issuer: String, transport: any KeySetTransport = URLSessionKeySetTransport(),
        maximumAge: TimeInterval = 3600, minimumRefetchInterval: TimeInterval = 30,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(
            location: .discovery(issuer: issuer), transport: transport, maximumAge: maximumAge,
            minimumRefetchInterval: minimumRefetchInterval, now: now)
    }

    init(
        location: Location, transport: any KeySetTransport, maximumAge: TimeInterval,
        minimumRefetchInterval: TimeInterval, now: @escaping @Sendable () -> Date
    ) {
        self.location = location
        self.transport = transport
        self.maximumAge = max(0, maximumAge)
        self.minimumRefetchInterval = max(0, minimumRefetchInterval)
        self.now = now
    }

    /// The keys to verify with: the held set while fresh, read without entering the actor (the
    /// validation hot path); else a fetch, falling back to the held set when the fetch fails.
    nonisolated func keys() async throws(AccessTokenError) -> JWKSet {
        let held = current.withLock { $0 }
        if let held, now().timeIntervalSince(held.fetchedAt) < maximumAge { return held.keys }
        return try await refreshedKeys()
    }

    /// A fetch, falling back to the held set when it fails.
    private func refreshedKeys() async throws(AccessTokenError) -> JWKSet {
        do {
            return try await fetch()
        } catch {
            if let held = current.withLock({ $0 }) { return held.keys }
            throw AccessTokenError(.keysUnavailable, "the issuer's keys could not be fetched: \(error)")
        }
    }

    /// A fresh set after a token named an unknown `kid`; `nil` when a refetch happened too
    /// recently or failed.
    func keysAfterUnknownKey() async -> JWKSet? {
        let time = now()
        if let lastUnknownKeyFetch, time.timeIntervalSince(lastUnknownKeyFetch) < minimumRefetchInterval {
            return nil
        }
        lastUnknownKeyFetch = time
        return try? await fetch()
    }

    /// One fetch shared by every caller that arrives while it runs.
    private func fetch() async throws -> JWKSet {
        if let inFlight { return try await inFlight.value }
        let task = Task { try await self.download() }
        inFlight = task
        defer { inFlight = nil }
        let keys = try await task.value
        let fetchedAt = now()
        current.withLock { $0 = (keys, fetchedAt) }
        return keys
    }

    private func download() async throws -> JWKSet {
        let uri = try await jwksURI()
        let (status, body) = try await transport.get(uri)
        guard status == 200 else { throw KeySetFetchError("\(uri.absoluteString) answered HTTP \(status)") }
        do {
            return try JWKSet.parse(body)
        } catch {
            throw KeySetFetchError("\(uri.absoluteString): \(error.reason)")
        }
    }

    private func jwksURI() async throws -> URL {
        if let resolvedJWKSURI { return resolvedJWKSURI }
        switch location {
        case .jwksURI(let uri):
            resolvedJWKSURI = uri
            return uri
        case .discovery(let issuer):
            let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
            guard let url = URL(string: trimmed + "/.well-known/openid-configuration") else {
                throw KeySetFetchError("the issuer \(issuer) is not a URL")
            }
            let (status, body) = try await transport.get(url)
            guard status == 200 else { throw KeySetFetchError("\(url.absoluteString) answered HTTP \(status)") }
            let document = try? JSONDecoder().decode(DiscoveryKeys.self, from: body)
            guard let document, document.issuer == issuer else {
                throw KeySetFetchError("the discovery document at \(url.absoluteString) does not name the issuer \(issuer)")
            }
            guard let uri = URL(string: document.jwks_uri), ["https", "http"].contains(uri.scheme?.lowercased() ?? "")
            else {
                throw KeySetFetchError("the discovery document's jwks_uri is not an http(s) URL")
            }
            resolvedJWKSURI = uri
            return uri
        }
    }

    private struct DiscoveryKeys: Decodable {
        var issuer: String
        var jwks_uri: String
    }
}

/// Why the issuer's keys could not be fetched (reported inside ``AccessTokenRule/keysUnavailable``).
struct KeySetFetchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
