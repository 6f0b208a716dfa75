import Foundation
import SesameProtocol
import SesameStore

/// Decides which registered APIs a token request's access token is for (RFC 8707 §2, §2.2).
///
/// A client may ask only for the APIs it is registered for (``ClientRecord/resources``). At
/// `/authorize` and `/par` the APIs named (or the client's default) are checked and kept with
/// the code; at `/token` a code or refresh token's request may narrow them, never widen them
/// (§2.2), and without `resource` gets all of them. A code or family that named none is held
/// to the client's APIs only. Grants with no earlier step (client
/// credentials, device code, PIN unlock, federation) may name any of the client's APIs, and get
/// its default without one. Every refusal is `invalid_target` naming the API and the reason.
///
/// APIs kept with a code or refresh family that were removed since, or that the client may no
/// longer ask for, are left out of new tokens without an error: the audience only shrinks.
///
/// One instance serves one request: it remembers the APIs it read, so a request that checks its
/// scopes and then its audience (`/authorize`), or checks `resource` before spending a code and
/// again when issuing, reads each API once.
package final class ResourceAuthorization: Sendable {
    package let store: any IdentityStore
    private let read = LockedState<[String: APIRecord?]>([:])

    package init(store: any IdentityStore) { self.store = store }

    /// The API registered as `identifier`, from the store the first time this request asks.
    private func registeredAPI(_ identifier: String) async throws -> APIRecord? {
        if let known = read.withLock({ $0[identifier] }) { return known }
        let api = try await store.api(identifier: identifier)
        read.withLock { $0[identifier] = .some(api) }
        return api
    }

    /// The APIs of a token request naming `requested`. `authorized`: what an earlier step
    /// authorized (a code's or refresh family's APIs), or `nil` for a grant with none. An earlier
    /// step that named no API restricted nothing: the client's APIs apply, as for a grant without
    /// one (a session begun by a native, PIN or single sign-on sign-in can still get an API's
    /// token at refresh).
    package func audience(requested: [String], authorized: [String]?, client: ClientRecord) async throws -> TokenAudience {
        let authorized = authorized.flatMap { $0.isEmpty ? nil : $0 }
        guard !requested.isEmpty else {
            let fallback = authorized ?? client.defaultResource.map { [$0] } ?? []
            var apis: [APIRecord] = []
            for identifier in fallback where client.resources.contains(identifier) {
                if let api = try await registeredAPI(identifier) { apis.append(api) }
            }
            return TokenAudience(apis: apis)
        }
        var apis: [APIRecord] = []
        for identifier in requested {
            guard let api = try await registeredAPI(identifier) else {
                throw ProviderFailure(
                    .invalidTarget,
                    "resource \(ResourceIndicator.quoted(identifier)) is not an API registered with this server (sesame api add).")
            }
            guard client.resources.contains(identifier) else {
                throw ProviderFailure(
                    .invalidTarget,
                    "This client may not ask for tokens for \(ResourceIndicator.quoted(identifier)) (sesame client add --api).")
            }
            if let authorized, !authorized.contains(identifier) {
                throw ProviderFailure(
                    .invalidTarget,
                    "resource \(ResourceIndicator.quoted(identifier)) was not part of the authorization; a token request may only narrow it (RFC 8707 section 2.2).")
            }
            apis.append(api)
        }
        return TokenAudience(apis: apis)
    }

    /// The scopes `client` may ask for: its registered ones and those its APIs define (no store
    /// read for a client without APIs).
    package func allowedScopes(_ client: ClientRecord) async throws -> Set<String> {
        var allowed = Set(client.allowedScopes)
        guard !client.resources.isEmpty else { return allowed }
        for identifier in client.resources {
            if let api = try await registeredAPI(identifier) { allowed.formUnion(api.scopes) }
        }
        return allowed
    }
}
