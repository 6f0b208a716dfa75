import SesameStore
import Foundation
import SesameProtocol

/// The rules every registered client must satisfy, shared by ``ServerAdmin`` and ``Seeder``.
/// Field names in issues are RFC 7591 §2 metadata names.
public enum ClientValidation {
    /// One broken rule.
    public typealias Issue = ValidationIssue

    /// Upper bounds that keep a typo from issuing near-eternal tokens.
    package static let maxAccessOrIDTokenLifetime = 24 * 3600
    package static let maxRefreshTokenLifetime = 366 * 24 * 3600

    /// Validates raw client metadata and builds the record. `grantTypes` are wire names so that
    /// unsupported ones (`password`, `implicit`) get a specific reason.
    public static func makeRecord(
        clientID: String, name: String, confidential: Bool, secretHash: String?,
        redirectURIs: [String], postLogoutRedirectURIs: [String], grantTypes: [String],
        scopes: [String], tokenEndpointAuthMethod: String?, idTokenSigningAlg: String,
        accessTokenSigningAlg: String = "RS256", accessTokenLifetime: Int, idTokenLifetime: Int, refreshTokenLifetime: Int,
        createdAt: Date = Date(), mfaPolicy: MFAPolicy = .whenEnrolled, firstParty: Bool = false,
        appGroup: String? = nil, jwks: String? = nil, requirePushedRequests: Bool = false,
        dpopBoundAccessTokens: Bool = false, securityProfile: ClientSecurityProfile = .standard,
        tlsClientAuthSubject: TLSClientAuthSubject? = nil, certificateBoundAccessTokens: Bool = false
    ) throws(Issue) -> ClientRecord {
        try checkClientID(clientID)
        if let appGroup { try checkAppGroup(appGroup) }
        if let jwks { try checkJWKS(jwks) }
        if let tlsClientAuthSubject { try checkTLSClientAuthSubject(tlsClientAuthSubject) }
        // A client with registered keys (private_key_jwt, self_signed_tls_client_auth) or a
        // registered certificate subject (tls_client_auth) authenticates without a secret.
        let authenticates = confidential || jwks != nil || tlsClientAuthSubject != nil
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Issue(field: "client_name", reason: "must not be empty; give the client a display name")
        }
        var grants = try checkGrantTypes(grantTypes, confidential: authenticates)
        var scopes = scopes
        for (index, uri) in redirectURIs.enumerated() {
            try checkRedirectURI(uri, field: "redirect_uris[\(index)]")
        }
        if grants.contains(.authorizationCode), redirectURIs.isEmpty {
            throw Issue(
                field: "redirect_uris",
                reason: "the authorization_code grant needs at least one redirect URI (RFC 6749 §3.1.2.2); add one")
        }
        for (index, uri) in postLogoutRedirectURIs.enumerated() {
            try checkRedirectURI(uri, field: "post_logout_redirect_uris[\(index)]")
        }
        try checkScopes(scopes)
        // Native SSO: an app group's clients exchange sign-ins (RFC 8693) and ask for device_sso.
        if appGroup != nil {
            if !grants.contains(.tokenExchange) { grants.append(.tokenExchange) }
            if scopes.contains("openid"), !scopes.contains(NativeSSO.scope) { scopes.append(NativeSSO.scope) }
        }
        let method = try checkAuthMethod(
            tokenEndpointAuthMethod, confidential: confidential, hasKeys: jwks != nil,
            subject: tlsClientAuthSubject)
        guard SigningAlgorithm(rawValue: idTokenSigningAlg) != nil else {
            throw Issue(
                field: "id_token_signed_response_alg",
                reason: "\"\(idTokenSigningAlg)\" is not supported; use RS256 or ES256")
        }
        guard SigningAlgorithm(rawValue: accessTokenSigningAlg) != nil else {
            throw Issue(
                field: "access_token_signed_response_alg",
                reason: "\"\(accessTokenSigningAlg)\" is not supported; use RS256 or ES256")
        }
        try checkLifetime(accessTokenLifetime, field: "access_token_lifetime", max: maxAccessOrIDTokenLifetime)
        try checkLifetime(idTokenLifetime, field: "id_token_lifetime", max: maxAccessOrIDTokenLifetime)
        try checkLifetime(refreshTokenLifetime, field: "refresh_token_lifetime", max: maxRefreshTokenLifetime)
        if confidential, secretHash == nil {
            throw Issue(field: "client_secret", reason: "a confidential client needs a secret")
        }
        var record = ClientRecord(
            clientID: clientID, name: name, secretHash: confidential ? secretHash : nil,
            redirectURIs: redirectURIs, postLogoutRedirectURIs: postLogoutRedirectURIs,
            grantTypes: grants, allowedScopes: scopes, tokenEndpointAuthMethod: method,
            idTokenSigningAlg: idTokenSigningAlg, accessTokenSigningAlg: accessTokenSigningAlg,
            accessTokenLifetime: accessTokenLifetime,
            idTokenLifetime: idTokenLifetime, refreshTokenLifetime: refreshTokenLifetime,
            createdAt: createdAt, mfaPolicy: mfaPolicy, firstParty: firstParty, appGroup: appGroup, jwks: jwks,
            requirePushedRequests: requirePushedRequests, dpopBoundAccessTokens: dpopBoundAccessTokens)
        record.tlsClientAuthSubject = tlsClientAuthSubject
        record.certificateBoundAccessTokens = certificateBoundAccessTokens
        if certificateBoundAccessTokens, !record.isConfidential {
            throw Issue(
                field: "tls_client_certificate_bound_access_tokens",
                reason: "certificate-bound tokens are for clients that authenticate (RFC 8705 section 4): use tls_client_auth, self_signed_tls_client_auth or a secret, or bind a public client's tokens with DPoP")
        }
        if securityProfile == .fapi2 { try FAPI2ClientRules.apply(to: &record) }
        return record
    }

    /// The device grant's timing bounds (RFC 8628 §3.2): a code lives 1 s to a day; devices
    /// poll every 1 to 300 s.
    package static let deviceCodeLifetimes = 1...86_400
    package static let devicePollIntervals = 1...300

    /// Sets the policies that ``makeRecord`` leaves at their defaults: who `record` may
    /// introspect and its device grant's timing, each checked.
    public static func applyPolicies(
        introspectsAnyToken: Bool, deviceCodeLifetime: Int?, devicePollInterval: Int?, to record: inout ClientRecord
    ) throws(Issue) {
        if let deviceCodeLifetime, !deviceCodeLifetimes.contains(deviceCodeLifetime) {
            throw Issue(
                field: "device_code_lifetime",
                reason: "\(deviceCodeLifetime) is out of range; use \(deviceCodeLifetimes.lowerBound) to \(deviceCodeLifetimes.upperBound) seconds")
        }
        if let devicePollInterval, !devicePollIntervals.contains(devicePollInterval) {
            throw Issue(
                field: "device_poll_interval",
                reason: "\(devicePollInterval) is out of range; use \(devicePollIntervals.lowerBound) to \(devicePollIntervals.upperBound) seconds")
        }
        if (deviceCodeLifetime != nil || devicePollInterval != nil), !record.grantTypes.contains(.deviceCode) {
            throw Issue(
                field: "grant_types",
                reason: "device code timing is set but the client lacks the \(GrantType.deviceCode.rawValue) grant; add it")
        }
        if introspectsAnyToken, !record.isConfidential {
            throw Issue(
                field: "introspects_any_token",
                reason: "only a confidential client (a resource server with a secret or keys) may introspect tokens")
        }
        record.introspectsAnyToken = introspectsAnyToken
        record.deviceCodeLifetime = deviceCodeLifetime
        record.devicePollInterval = devicePollInterval
    }

    /// `security_profile`: `standard` or `fapi2`.
    public static func checkSecurityProfile(_ name: String) throws(Issue) -> ClientSecurityProfile {
        guard let profile = ClientSecurityProfile(rawValue: name) else {
            throw Issue(
                field: "security_profile",
                reason: "\"\(name.prefix(40))\" is not a security profile; use standard or fapi2")
        }
        return profile
    }

    /// `app_group`: 1–64 characters from a-z 0-9 - . _ (a vendor's name, e.g. `acme`).
    public static func checkAppGroup(_ group: String) throws(Issue) {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789-._")
        guard !group.isEmpty, group.count <= 64, group.unicodeScalars.allSatisfy({ allowed.contains($0) }) else {
            throw Issue(field: "app_group", reason: "\"\(group)\" is not valid; use 1-64 characters from a-z 0-9 - . _")
        }
    }

    /// `jwks` (RFC 7591 §2): a JSON Web Key Set (RFC 7517 §5) of public keys, each with a `kid`
    /// and of a type client assertions may use (EC P-256, RSA, Ed25519). No private members.
    public static func checkJWKS(_ text: String) throws(Issue) {
        guard text.utf8.count <= 16_384,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let keys = object["keys"] as? [[String: Any]], !keys.isEmpty
        else {
            throw Issue(field: "jwks", reason: "is not a JSON Web Key Set; give {\"keys\": [ ... ]} with the client's public keys")
        }
        for (index, key) in keys.enumerated() {
            guard let kty = key["kty"] as? String, ["EC", "RSA", "OKP"].contains(kty) else {
                throw Issue(field: "jwks.keys[\(index)]", reason: "kty must be EC, RSA or OKP")
            }
            guard let kid = key["kid"] as? String, !kid.isEmpty else {
                throw Issue(field: "jwks.keys[\(index)]", reason: "needs a kid, which the client's assertions name")
            }
            guard key["d"] == nil, key["p"] == nil else {
                throw Issue(field: "jwks.keys[\(index)]", reason: "is a private key; register the public key only")
            }
        }
    }

    /// `mfa_policy`: `never`, `when_enrolled` or `always` (``MFAPolicy``).
    public static func checkMFAPolicy(_ name: String) throws(Issue) -> MFAPolicy {
        guard let policy = MFAPolicy(rawValue: name) else {
            let supported = MFAPolicy.allCases.map(\.rawValue).joined(separator: ", ")
            throw Issue(field: "mfa_policy", reason: "\"\(name)\" is unknown; use one of \(supported)")
        }
        return policy
    }

    /// 1–128 URL-safe characters (RFC 3986 §2.3 unreserved), so the id is safe in URLs and logs.
    public static func checkClientID(_ id: String) throws(Issue) {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        guard !id.isEmpty, id.count <= 128,
            id.unicodeScalars.allSatisfy({ allowed.contains($0) })
        else {
            throw Issue(
                field: "client_id",
                reason: "\"\(id)\" is not valid; use 1-128 characters from A-Z a-z 0-9 - . _ ~")
        }
    }

    /// Grant types Sesame implements (``GrantType``). The password and implicit grants are
    /// refused with their RFC 9700 reason; `client_credentials` needs a confidential client.
    /// `device_code` is accepted as short for RFC 8628's
    /// `urn:ietf:params:oauth:grant-type:device_code`.
    public static func checkGrantTypes(_ names: [String], confidential: Bool) throws(Issue) -> [GrantType] {
        guard !names.isEmpty else {
            throw Issue(field: "grant_types", reason: "must not be empty; use authorization_code")
        }
        var grants: [GrantType] = []
        for name in names {
            if name == "password" {
                throw Issue(
                    field: "grant_types",
                    reason: "\"password\" is not supported (RFC 9700 §2.4); use authorization_code")
            }
            if name == "implicit" || name == "token" {
                throw Issue(
                    field: "grant_types",
                    reason: "\"\(name)\" is not supported (RFC 9700 §2.1.2); use authorization_code with PKCE")
            }
            guard let grant = GrantType(rawValue: name == "device_code" ? GrantType.deviceCode.rawValue : name) else {
                let supported = GrantType.allCases.map(\.rawValue).joined(separator: ", ")
                throw Issue(field: "grant_types", reason: "\"\(name)\" is unknown; use one of \(supported)")
            }
            if grant == .clientCredentials, !confidential {
                throw Issue(
                    field: "grant_types",
                    reason: "\"client_credentials\" needs a confidential client (RFC 6749 §4.4); make the client confidential or remove the grant")
            }
            if !grants.contains(grant) { grants.append(grant) }
        }
        return grants
    }

    /// RFC 6749 §3.1.2: absolute, no fragment. RFC 9700 §2.1 / RFC 8252 §7: `https`, or `http`
    /// only on a loopback host (§7.3; `localhost` is discouraged by §8.3 but accepted), or a
    /// private-use scheme in reverse-domain form, i.e. containing a dot (§7.1).
    public static func checkRedirectURI(_ uri: String, field: String) throws(Issue) {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            !scheme.isEmpty
        else {
            throw Issue(field: field, reason: "\"\(uri)\" is not an absolute URI (RFC 6749 §3.1.2); include the scheme")
        }
        guard components.fragment == nil, !uri.contains("#") else {
            throw Issue(field: field, reason: "\"\(uri)\" must not contain a fragment (RFC 6749 §3.1.2); remove the #...")
        }
        guard !uri.contains("*") else {
            throw Issue(field: field, reason: "\"\(uri)\" contains a wildcard; redirect URIs are matched exactly (RFC 9700 §4.1.3)")
        }
        switch scheme {
        case "https":
            guard let host = components.host, !host.isEmpty else {
                throw Issue(field: field, reason: "\"\(uri)\" has no host; use https://host/path")
            }
        case "http":
            let host = (components.host ?? "").lowercased()
            guard ["127.0.0.1", "[::1]", "::1", "localhost"].contains(host) else {
                throw Issue(
                    field: field,
                    reason: "\"\(uri)\" uses http on a non-loopback host; use https, or http://127.0.0.1 for native apps (RFC 8252 §7.3)")
            }
        default:
            guard scheme.contains(".") else {
                throw Issue(
                    field: field,
                    reason: "\"\(uri)\" uses the scheme \"\(scheme)\"; use https, a loopback http URI, or a reverse-domain private-use scheme such as com.example.app:/callback (RFC 8252 §7.1)")
            }
        }
    }

    /// RFC 6749 §3.3 scope tokens: non-empty, no spaces, no `"` or `\`.
    public static func checkScopes(_ scopes: [String]) throws(Issue) {
        for scope in scopes {
            let valid = !scope.isEmpty && scope.unicodeScalars.allSatisfy { scalar in
                scalar.value == 0x21 || (0x23...0x5B).contains(scalar.value)
                    || (0x5D...0x7E).contains(scalar.value)
            }
            guard valid else {
                throw Issue(field: "scope", reason: "\"\(scope)\" is not a valid scope token (RFC 6749 §3.3); use printable ASCII without spaces, quotes or backslashes")
            }
        }
    }

    package static func checkLifetime(_ value: Int, field: String, max: Int) throws(Issue) {
        guard value > 0, value <= max else {
            throw Issue(field: field, reason: "\(value) is out of range; use 1...\(max) seconds")
        }
    }
}
