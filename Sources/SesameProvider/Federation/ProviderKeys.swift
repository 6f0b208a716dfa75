import Foundation
import JWTKit
import SesameStore

/// The signing keys of federation providers (docs/federation.md): a provider's JWKS fetched
/// over HTTPS and kept as long as its `Cache-Control: max-age` says (between 1 minute and
/// 1 day; 1 hour without one), or its registered PEM key. A token naming a `kid` the cached set
/// lacks causes one refetch, at most once a minute per provider (OIDC Core §10.1.1: keys
/// rotate; an attacker's unknown `kid`s cannot make the server hammer the provider).
package actor ProviderKeys {
    package struct Entry {
        package var keys: JWTKeyCollection
        package var kids: Set<String>
        package var fetchedAt: Date
        package var maxAge: TimeInterval
    }

    package static let defaultMaxAge: TimeInterval = 3_600
    package static let maxAgeBounds: ClosedRange<TimeInterval> = 60...86_400
    package static let minimumRefetchInterval: TimeInterval = 60

    private var entries: [String: Entry] = [:]
    /// When an unknown `kid` last caused a refetch, per provider.
    private var lastRefetch: [String: Date] = [:]
    private let now: @Sendable () -> Date
    private let transport: any UpstreamTransport

    package init(transport: any UpstreamTransport, now: @escaping @Sendable () -> Date) {
        self.transport = transport
        self.now = now
    }

    /// The keys to verify a token of `provider` whose header names `kid`.
    package func keys(for provider: FederationProviderRecord, kid: String?) async throws(FederationRefusal) -> JWTKeyCollection {
        if let pem = provider.publicKeyPEM { return try await Self.collection(pem: pem) }
        guard let uri = provider.jwksURI else { throw .keys("the provider has neither jwks_uri nor a public key") }
        let now = now()
        if let entry = entries[provider.id], now.timeIntervalSince(entry.fetchedAt) < entry.maxAge {
            let known = kid.map(entry.kids.contains) ?? true
            if known { return entry.keys }
            if let last = lastRefetch[provider.id], now.timeIntervalSince(last) < Self.minimumRefetchInterval {
                return entry.keys  // verification fails on the unknown kid
            }
            lastRefetch[provider.id] = now
        }
        let entry = try await fetch(uri)
        entries[provider.id] = entry
        return entry.keys
    }

    /// Forgets a provider's keys (its registration changed).
    package func forget(_ providerID: String) { entries[providerID] = nil }

    private func fetch(_ uri: String) async throws(FederationRefusal) -> Entry {
        let request = UpstreamRequest(url: uri, headers: [("Accept", "application/json")])
        let response = try await UpstreamHTTP.fetch(request, transport: transport, what: "JWKS at \(uri)")
        guard response.status == 200 else {
            throw .keys("the provider's JWKS at \(uri) answered HTTP \(response.status)")
        }
        let text = String(decoding: response.body, as: UTF8.self)
        let keys = JWTKeyCollection()
        do {
            try await keys.add(jwksJSON: text)
        } catch {
            throw .keys("the provider's JWKS at \(uri) is not a usable JWK Set")
        }
        let kids = Set(
            ((try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["keys"] as? [[String: Any]] ?? [])
                .compactMap { $0["kid"] as? String })
        return Entry(keys: keys, kids: kids, fetchedAt: now(), maxAge: Self.maxAge(response.values(of: "Cache-Control")))
    }

    /// `Cache-Control: max-age=N` (RFC 9111 §5.2.2.1), bounded; `no-store`/`no-cache` mean the
    /// shortest.
    package static func maxAge(_ cacheControl: [String]) -> TimeInterval {
        let directives = cacheControl.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if directives.contains("no-store") || directives.contains("no-cache") { return maxAgeBounds.lowerBound }
        // delta-seconds is digits only (RFC 9111 §1.2.2): "nan", "inf" or "1e30" are no max-age.
        guard let text = directives.first(where: { $0.hasPrefix("max-age=") })?.dropFirst(8),
            !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { return defaultMaxAge }
        // Digits beyond what a Double holds exactly are still a long time: the upper bound.
        let value = TimeInterval(text) ?? maxAgeBounds.upperBound
        return min(max(value, maxAgeBounds.lowerBound), maxAgeBounds.upperBound)
    }

    /// A collection holding a PEM public key (RSA or EC P-256).
    package static func collection(pem: String) async throws(FederationRefusal) -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        if let rsa = try? Insecure.RSA.PublicKey(pem: pem) {
            await keys.add(rsa: rsa, digestAlgorithm: .sha256)
        } else if let ec = try? ES256PublicKey(pem: pem) {
            await keys.add(ecdsa: ec)
        } else {
            throw .keys("the provider's registered public key is neither an RSA nor a P-256 PEM key")
        }
        return keys
    }
}
