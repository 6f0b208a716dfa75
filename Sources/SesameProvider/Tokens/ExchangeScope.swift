import SesameProtocol
import SesameStore

/// The scope a token exchange issues (RFC 8693 §2.1 `scope`): the requested scopes when the
/// client may have every one, else `invalid_scope` naming the first it may not; without a
/// request, the `defaults` the client is allowed. Shared by the Native SSO and federation
/// exchanges. `allowed` is what the client may ask for (its scopes and those of its APIs,
/// ``ResourceAuthorization/allowedScopes(_:)``); `nil`: its registered scopes.
package enum ExchangeScope {
    package static func resolve(
        _ requested: [String]?, defaults: [String], client: ClientRecord, allowed: Set<String>? = nil
    ) throws -> String {
        let allowed = allowed ?? Set(client.allowedScopes)
        guard let requested else { return ScopeList.format(defaults.filter(allowed.contains)) }
        if let bad = requested.first(where: { !allowed.contains($0) }) {
            throw ProviderFailure(.invalidScope, "This client may not ask for the scope '\(bad)'.")
        }
        return ScopeList.format(requested)
    }

    /// The `scope` parameter's scopes; `nil` when absent or empty.
    package static func requested(_ parameter: String?) -> [String]? {
        guard let parameter, !parameter.isEmpty else { return nil }
        return ScopeList.parse(parameter)
    }
}
