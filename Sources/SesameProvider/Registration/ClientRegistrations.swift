import Foundation
import SesameProtocol
import SesameStore

/// Dynamic client registration (RFC 7591) and the client configuration endpoint (RFC 7592),
/// without HTTP, within the operator's ``ClientRegistrationPolicy``.
///
/// A registration is validated as `sesame client add` validates a client (``ClientValidation``)
/// after the policy's own rules: `https` or loopback `http` redirect URIs (RFC 8252 §7.3, §8.4;
/// else `invalid_redirect_uri`), `code` the only response type, the policy's scopes and grants,
/// a public client (`none`, PKCE) unless the policy allows secrets (else
/// `invalid_client_metadata`, naming the member). The client gets a random id; a secret, when
/// confidential, answered once and kept as a hash; and a registration access token (RFC 7592 §3)
/// kept as a digest and replaced by every read and update of the registration, whose new value
/// the answer carries. Every registration, change and deletion is audited; a client that obtains
/// no token within the policy's lifetime is removed by ``ExpiredDataPurge``.
package struct ClientRegistrations: Sendable {
    package let policy: ClientRegistrationPolicy
    package let store: any ProviderStore
    package let issuer: String
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(
        policy: ClientRegistrationPolicy, store: any ProviderStore, issuer: String,
        audit: AuditLog, now: @escaping @Sendable () -> Date
    ) {
        self.policy = policy
        self.store = store
        self.issuer = issuer
        self.audit = audit
        self.now = now
    }

    /// RFC 7591 §3.1: registers a client. `initialAccessToken` is the request's Bearer token,
    /// required when the policy's mode is ``ClientRegistrationPolicy/Mode/token``.
    package func register(
        _ request: ClientRegistrationRequest, initialAccessToken: String?, origin: RequestOrigin?
    ) async throws -> ClientRegistrationResponse {
        let now = now()
        if policy.mode == .token {
            guard let token = initialAccessToken, token.utf8.count <= 256,
                try await store.consumeInitialAccessToken(digest: SecretDigest.of(token), now: now)
            else {
                throw ProviderFailure(
                    .invalidToken,
                    "Registration needs an initial access token from the operator (sesame registration token create), sent as Authorization: Bearer; this one is missing, unknown, expired or used up.")
            }
        }
        let (count, start) = try await store.countRequest(key: "registration:total", now: now, window: 3600)
        if count > policy.registrationsPerHour {
            var failure = ProviderFailure(.rateLimited, "Too many clients registered this hour; try again later.")
            failure.retryAfter = max(1, Int(start.addingTimeInterval(3600).timeIntervalSince(now).rounded(.up)))
            throw failure
        }
        let clientID = "dyn-" + SecureRandom.token(byteCount: 12)
        let spec = try specification(request, clientID: clientID, apis: try await openAPIs())
        let generated = spec.confidential ? GeneratedClientSecret.make() : nil
        let secret = generated?.secret
        var client = try record(spec, secretHash: generated?.storedHash)
        client.createdAt = now
        let token = SecureRandom.token()
        try await store.upsertClient(client)
        let registration = ClientRegistrationRecord(
            clientID: clientID, accessTokenDigest: SecretDigest.of(token), softwareID: Self.bounded(request.softwareID),
            softwareVersion: Self.bounded(request.softwareVersion), registeredAt: now)
        try await store.insertClientRegistration(registration)
        audit.record(
            .clientRegistered, origin: origin, clientID: clientID,
            detail: ["confidential": "\(spec.confidential)", "mode": policy.mode.rawValue, "software_id": registration.softwareID ?? ""])
        return response(client, registration, secret: secret, token: token)
    }

    /// RFC 7592 §2.1: the registration as it stands, with a new registration access token.
    package func read(clientID: String, registrationAccessToken: String?) async throws -> ClientRegistrationResponse {
        let (client, registration) = try await authorized(clientID, registrationAccessToken)
        let token = try await rotate(registration, presented: registrationAccessToken ?? "")
        return response(client, registration, secret: nil, token: token)
    }

    /// RFC 7592 §2.2: replaces the client's metadata (members left out take their defaults); the
    /// secret stays, and a public client stays public.
    package func update(
        clientID: String, registrationAccessToken: String?, _ request: ClientRegistrationRequest, origin: RequestOrigin?
    ) async throws -> ClientRegistrationResponse {
        let (current, registration) = try await authorized(clientID, registrationAccessToken)
        if let named = request.clientID, named != clientID {
            throw Self.metadata("client_id \"\(named.prefix(100))\" is not this registration's (RFC 7592 section 2.2)")
        }
        let kept = try await store.apis().filter { current.resources.contains($0.identifier) }
        let spec = try specification(request, clientID: clientID, apis: kept)
        guard spec.confidential == current.isConfidential else {
            throw Self.metadata("token_endpoint_auth_method cannot change between a public and a confidential client; register a new client")
        }
        var client = try record(spec, secretHash: current.secretHash)
        client.createdAt = current.createdAt
        try await store.upsertClient(client)
        let token = try await rotate(registration, presented: registrationAccessToken ?? "")
        audit.record(.clientRegistrationUpdated, origin: origin, clientID: clientID)
        return response(client, registration, secret: nil, token: token)
    }

    /// RFC 7592 §2.3: removes the client, its codes and refresh tokens.
    package func delete(clientID: String, registrationAccessToken: String?, origin: RequestOrigin?) async throws {
        _ = try await authorized(clientID, registrationAccessToken)
        try await store.removeClient(id: clientID)
        audit.record(.clientRegistrationDeleted, origin: origin, clientID: clientID)
    }

    /// Records that `client` obtained tokens, once, while it could still expire unused.
    package func markUsed(_ client: ClientRecord) async {
        guard client.createdAt > now().addingTimeInterval(-policy.unusedClientLifetime) else { return }
        try? await store.markClientRegistrationUsed(clientID: client.clientID, now: now())
    }

    // MARK: Parts

    /// RFC 7592 §2: the client and its registration, when `presented` is its current
    /// registration access token; `invalid_token` (401) otherwise, also for an unknown client
    /// or one an operator registered, so the answer tells nothing about which clients exist.
    private func authorized(_ clientID: String, _ presented: String?) async throws -> (ClientRecord, ClientRegistrationRecord) {
        guard let presented, !presented.isEmpty, presented.utf8.count <= 256,
            let registration = try await store.clientRegistration(clientID: clientID),
            ConstantTime.equals(registration.accessTokenDigest, SecretDigest.of(presented)),
            let client = try await store.client(id: clientID)
        else {
            throw ProviderFailure(
                .invalidToken, "The registration access token is missing or not this client's current one (RFC 7592 section 2).")
        }
        return (client, registration)
    }

    /// A new registration access token in place of `presented`; of two requests presenting the
    /// same token, one gets the new token and the other `invalid_token`.
    private func rotate(_ registration: ClientRegistrationRecord, presented: String) async throws -> String {
        let token = SecureRandom.token()
        guard try await store.replaceRegistrationAccessToken(
            clientID: registration.clientID, digest: SecretDigest.of(presented), with: SecretDigest.of(token))
        else {
            throw ProviderFailure(.invalidToken, "The registration access token was replaced meanwhile; use the newest one.")
        }
        return token
    }

    private func record(_ spec: ClientSpec, secretHash: String?) throws -> ClientRecord {
        do {
            return try ServerAdmin.record(for: spec, secretHash: secretHash)
        } catch AdminError.invalidClient(let field, let reason) {
            if field.hasPrefix("redirect_uris") { throw Self.redirectURI("\(field): \(reason)") }
            throw Self.metadata("\(field): \(reason)")
        }
    }

    private func response(
        _ client: ClientRecord, _ registration: ClientRegistrationRecord, secret: String?, token: String
    ) -> ClientRegistrationResponse {
        ClientRegistrationResponse(
            clientID: client.clientID, clientSecret: secret, clientIDIssuedAt: Int(registration.registeredAt.timeIntervalSince1970),
            clientSecretExpiresAt: client.isConfidential ? 0 : nil, registrationAccessToken: token,
            registrationClientURI: issuer + ClientRegistrationPolicy.path + "/" + client.clientID,
            redirectURIs: client.redirectURIs, tokenEndpointAuthMethod: client.tokenEndpointAuthMethod.rawValue,
            grantTypes: client.grantTypes.map(\.rawValue), responseTypes: client.grantTypes.contains(.authorizationCode) ? ["code"] : [],
            clientName: client.name, scope: ScopeList.format(client.allowedScopes), softwareID: registration.softwareID,
            softwareVersion: registration.softwareVersion)
    }

    private static func bounded(_ value: String?) -> String? {
        value.map { String($0.prefix(200)) }
    }

    static func metadata(_ description: String) -> ProviderFailure {
        ProviderFailure(.invalidClientMetadata, description)
    }

    static func redirectURI(_ description: String) -> ProviderFailure {
        ProviderFailure(.invalidRedirectURIMetadata, description)
    }
}
