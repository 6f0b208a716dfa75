import Foundation
import SesameProtocol
import SesameStore

extension ClientRegistrations {
    /// The registered APIs the policy opens to registered clients.
    func openAPIs() async throws -> [APIRecord] {
        guard !policy.apis.isEmpty else { return [] }
        return try await store.apis().filter { policy.apis.contains($0.identifier) }
    }

    /// The grants a registered client may have (RFC 7591 §2 `grant_types`); `client_credentials`
    /// only where the policy allows it, never token exchange (app groups are the operator's).
    static let registrableGrants: Set<GrantType> = [.authorizationCode, .refreshToken, .deviceCode, .clientCredentials]

    /// The client `request` asks for under the policy (RFC 7591 §2), as a ``ClientSpec`` that
    /// ``ClientValidation`` then checks like any other client.
    /// `apis`: the registered APIs the client may ask for (``ClientRegistrationPolicy/apis``).
    func specification(_ request: ClientRegistrationRequest, clientID: String, apis: [APIRecord]) throws -> ClientSpec {
        let redirectURIs = request.redirectURIs ?? []
        guard redirectURIs.count <= 10 else { throw Self.redirectURI("Register at most 10 redirect URIs.") }
        for uri in redirectURIs {
            if let problem = Self.redirectProblem(uri) {
                throw Self.redirectURI("redirect_uris: \"\(uri.prefix(100))\" \(problem) (RFC 8252 sections 7.3 and 8.4)")
            }
        }
        let method = request.tokenEndpointAuthMethod ?? ClientAuthenticationMethod.none.rawValue
        let confidential: Bool
        switch ClientAuthenticationMethod(rawValue: method) {
        case .some(.none): confidential = false
        case .some(.clientSecretBasic), .some(.clientSecretPost):
            guard policy.allowsConfidentialClients else {
                throw Self.metadata(
                    "token_endpoint_auth_method \"\(method)\": this server registers public clients only; use none with PKCE")
            }
            confidential = true
        default:
            throw Self.metadata(
                "token_endpoint_auth_method \"\(method.prefix(40))\" cannot be registered here; use none (or client_secret_basic where allowed)")
        }
        let grantNames = request.grantTypes ?? [GrantType.authorizationCode.rawValue, GrantType.refreshToken.rawValue]
        var grants: [GrantType] = []
        for name in grantNames {
            guard let grant = GrantType(rawValue: name), Self.registrableGrants.contains(grant) else {
                throw Self.metadata("grant_types: \"\(name.prefix(60))\" cannot be registered here")
            }
            if grant == .clientCredentials, !(policy.allowsClientCredentials && confidential) {
                throw Self.metadata("grant_types: client_credentials needs a confidential client and the operator's permission")
            }
            if !grants.contains(grant) { grants.append(grant) }
        }
        if let types = request.responseTypes, !types.isEmpty {
            guard types == ["code"], grants.contains(.authorizationCode) else {
                throw Self.metadata("response_types: only [\"code\"], with the authorization_code grant (RFC 7591 section 2.1)")
            }
        }
        let scopes = request.scope.map { ScopeList.parse($0) } ?? policy.scopes
        let open = policy.scopes + apis.flatMap(\.scopes)
        if let refused = scopes.first(where: { !open.contains($0) }) {
            throw Self.metadata("scope: \"\(refused.prefix(60))\" is not open to registered clients; ask for some of \(open.joined(separator: " "))")
        }
        let name = request.clientName ?? "Registered app \(clientID.suffix(6))"
        guard (1...100).contains(name.count) else { throw Self.metadata("client_name: give 1 to 100 characters") }
        var spec = ClientSpec(
            clientID: clientID, name: name, confidential: confidential, redirectURIs: redirectURIs, grantTypes: grants,
            scopes: scopes, tokenEndpointAuthMethod: ClientAuthenticationMethod(rawValue: method))
        spec.firstParty = false
        spec.resources = apis.map(\.identifier)
        return spec
    }

    /// Why `uri` cannot be a registered client's redirect URI, `nil` when it can: `https` (a
    /// claimed URL), or `http` on a loopback IP literal or `localhost` (RFC 8252 §7.3); no
    /// private-use schemes, which any app could claim.
    static func redirectProblem(_ uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
            return "is not an absolute URI"
        }
        guard scheme == "https" || scheme == "http" else {
            return "uses the scheme \(scheme.prefix(20)); registered clients use https or loopback http"
        }
        guard let host = components.host, !host.isEmpty else { return "has no host" }
        switch scheme {
        case "https": return nil
        case "http": return LoopbackHost.contains(host) ? nil : "uses http on a host that is not loopback; use https"
        default: return "uses the scheme \(scheme.prefix(20)); registered clients use https or loopback http"
        }
    }
}
