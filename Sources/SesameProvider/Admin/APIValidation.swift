import Foundation
import SesameProtocol
import SesameStore

/// The rules for registering an API (an RFC 8707 resource) and for the APIs a client may ask
/// tokens for. Field names are those of the seed file and the admin API.
package enum APIValidation {
    /// The most scopes one API may define.
    package static let maxScopes = 100

    /// The API `identifier` names, validated: an absolute `https` URI without a fragment
    /// (``ResourceIndicator/problem(_:)``), a name of at most 100 characters (the identifier when
    /// `nil`), scope tokens (RFC 6749 §3.3) that are not OpenID Connect's (those are the issuer's).
    package static func record(identifier: String, name: String?, scopes: [String], now: Date = Date()) throws(ValidationIssue)
        -> APIRecord
    {
        if let problem = ResourceIndicator.problem(identifier) {
            throw ValidationIssue(field: "identifier", reason: "\"\(identifier.prefix(100))\" \(problem) (RFC 8707 section 2)")
        }
        let name = name ?? identifier
        guard !name.isEmpty, name.count <= 100 else {
            throw ValidationIssue(field: "name", reason: "give a display name of 1 to 100 characters")
        }
        guard scopes.count <= maxScopes else {
            throw ValidationIssue(field: "scopes", reason: "an API may define at most \(maxScopes) scopes")
        }
        try ClientValidation.checkScopes(scopes)
        if let reserved = scopes.first(where: { TokenAudience.openIDScopes.contains($0) || $0 == NativeSSO.scope }) {
            throw ValidationIssue(
                field: "scopes",
                reason: "\"\(reserved)\" is an OpenID Connect scope of the issuer, not an API's; name the API's own scopes (orders:read)")
        }
        var unique: [String] = []
        for scope in scopes where !unique.contains(scope) { unique.append(scope) }
        return APIRecord(identifier: identifier, name: name, scopes: unique, createdAt: now)
    }

    /// Sets a client's APIs and default API: at most ``ResourceIndicator/maxCount`` valid
    /// identifiers, the default one of them.
    package static func applyResources(
        _ resources: [String], defaultResource: String?, to record: inout ClientRecord
    ) throws(ValidationIssue) {
        guard resources.count <= 50 else {
            throw ValidationIssue(field: "resources", reason: "a client may have at most 50 APIs")
        }
        for identifier in resources {
            if let problem = ResourceIndicator.problem(identifier) {
                throw ValidationIssue(field: "resources", reason: "\"\(identifier.prefix(100))\" \(problem)")
            }
        }
        if let defaultResource, !resources.contains(defaultResource) {
            throw ValidationIssue(
                field: "default_resource", reason: "\"\(defaultResource.prefix(100))\" must be one of the client's APIs (resources)")
        }
        var unique: [String] = []
        for identifier in resources where !unique.contains(identifier) { unique.append(identifier) }
        record.resources = unique
        record.defaultResource = defaultResource
    }

    /// Throws ``AdminError/invalidClient(field:reason:)`` for an identifier that is not a
    /// registered API.
    package static func checkRegistered(_ resources: [String], store: any IdentityStore) async throws {
        for identifier in resources where try await store.api(identifier: identifier) == nil {
            throw AdminError.invalidClient(
                field: "resources",
                reason: "\"\(identifier.prefix(100))\" is not a registered API; register it first with `sesame api add \(identifier.prefix(100))`")
        }
    }
}
