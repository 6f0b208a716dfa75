import Foundation
import Hummingbird
import SesameProtocol

/// Client authentication at the token, revocation and introspection endpoints
/// (RFC 6749 §2.3.1, OIDC Core §9): `client_secret_basic`, `client_secret_post`,
/// `private_key_jwt` (RFC 7523, ``ClientAssertionVerifier``), or `none` (public clients identify
/// themselves with `client_id` only, RFC 6749 §2.3 / RFC 8252 §8.4), `tls_client_auth` or
/// `self_signed_tls_client_auth` (RFC 8705 §2: the TLS client certificate, with `client_id` in
/// the body, ``MutualTLSClientAuthentication``).
///
/// Confidential clients may use either secret method whatever their registered
/// `token_endpoint_auth_method`; a request using both at once is refused (RFC 6749 §2.3).
struct ClientAuthenticator: Sendable {
    let store: any IdentityStore
    let verifier: CredentialVerifier
    /// The per-client request limit of the token endpoints, checked once the client is known
    /// and before its secret is (``RequestRateLimits``).
    var rateLimits: RequestRateLimits? = nil
    /// Checks `private_key_jwt` assertions; `nil`: such clients cannot authenticate.
    var assertions: ClientAssertionVerifier? = nil
    /// Checks TLS client certificates; `nil` (mutual TLS off): such clients cannot authenticate.
    var mutualTLS: MutualTLSClientAuthentication? = nil
    /// Where a request's client certificate comes from (`nil` with mutual TLS off).
    var certificates: ClientCertificateSource? = nil

    /// The authenticated client. Throws `invalid_client` (401) when authentication fails and
    /// `invalid_request` when the request is ambiguous.
    func authenticate(
        _ request: Request, form: [String: String], context: SesameRequestContext, requireConfidential: Bool = false
    ) async throws -> ClientRecord {
        try await authenticateWithCertificate(request, form: form, context: context, requireConfidential: requireConfidential)
            .client
    }

    /// ``authenticate(_:form:context:requireConfidential:)``, with the TLS client certificate
    /// it read when the client authenticates with one (RFC 8705 §2), so the token endpoint binds
    /// tokens to it without reading it again.
    func authenticateWithCertificate(
        _ request: Request, form: [String: String], context: SesameRequestContext, requireConfidential: Bool = false
    ) async throws -> (client: ClientRecord, certificate: ClientCertificate?) {
        let basic = try Self.basicCredentials(request)
        let challenge: HTTPFields =
            basic != nil ? [.wwwAuthenticate: "Basic realm=\"sesame\", charset=\"UTF-8\""] : [:]
        func failure(_ description: String) -> EndpointFailure {
            EndpointFailure(.invalidClient, description, status: .unauthorized, headers: challenge)
        }

        if form[ClientAssertionParameter.type] != nil || form[ClientAssertionParameter.assertion] != nil {
            guard basic == nil, form[OAuthParameter.clientSecret] == nil else {
                throw EndpointFailure(
                    .invalidRequest, "Use one client authentication method: a client assertion, or a secret, not both.")
            }
            return (try await authenticateWithAssertion(form, failure: failure), nil)
        }
        if basic != nil && form[OAuthParameter.clientSecret] != nil {
            throw EndpointFailure(
                .invalidRequest, "Use either HTTP Basic or client_secret in the body, not both.")
        }
        let clientID: String
        let secret: String?
        if let basic {
            if let formID = form[OAuthParameter.clientID], formID != basic.id {
                throw EndpointFailure(.invalidRequest, "client_id does not match the Authorization header.")
            }
            clientID = basic.id
            secret = basic.secret
        } else {
            guard let formID = form[OAuthParameter.clientID], !formID.isEmpty else {
                throw failure("Authenticate the client: send client_id (and its secret if it has one).")
            }
            clientID = formID
            secret = form[OAuthParameter.clientSecret]
        }
        guard let client = try await store.client(id: clientID) else {
            throw failure("client_id is not registered.")
        }
        _ = try await rateLimits?.admitClient(.token, clientID: client.clientID)
        if client.tokenEndpointAuthMethod.isMutualTLS {
            guard secret == nil else {
                throw failure("This client authenticates with its TLS client certificate (RFC 8705 section 2); send no secret.")
            }
            guard let mutualTLS, let certificates else {
                throw failure("This client authenticates with a TLS client certificate, which this server does not accept (sesame serve --mtls).")
            }
            let certificate = try await certificates.certificate(request, context: context)
            do {
                try await mutualTLS.authenticate(client, certificate: certificate)
            } catch {
                throw failure(error.description ?? "The client certificate does not authenticate this client.")
            }
            return (client, certificate)
        }
        if client.tokenEndpointAuthMethod == .privateKeyJWT {
            throw failure("This client authenticates with private_key_jwt; send client_assertion_type and client_assertion (RFC 7523).")
        }
        if client.isConfidential {
            guard let secret, !secret.isEmpty, await verifier.verifyClientSecret(secret, for: client) else {
                throw failure("The client secret is missing or wrong.")
            }
        } else {
            if secret != nil {
                throw failure("This client is public and has no secret; send client_id only.")
            }
            if requireConfidential {
                throw failure("Only confidential clients may call this endpoint.")
            }
        }
        return (client, nil)
    }

    /// RFC 7523 §2.2: `client_assertion_type` and `client_assertion`, with `client_id` optional
    /// (it must then match the assertion's `iss`).
    private func authenticateWithAssertion(
        _ form: [String: String], failure: (String) -> EndpointFailure
    ) async throws -> ClientRecord {
        guard form[ClientAssertionParameter.type] == ClientAssertionVerifier.assertionType else {
            throw failure("client_assertion_type must be \(ClientAssertionVerifier.assertionType).")
        }
        guard let assertion = form[ClientAssertionParameter.assertion], !assertion.isEmpty,
            let claimed = ClientAssertionVerifier.claimedClientID(assertion)
        else {
            throw failure("client_assertion must be a JWT whose iss is the client id.")
        }
        if let formID = form[OAuthParameter.clientID], !formID.isEmpty, formID != claimed {
            throw failure("client_id does not match the client assertion's iss.")
        }
        guard let client = try await store.client(id: claimed) else {
            throw failure("The client assertion's iss is not a registered client_id.")
        }
        _ = try await rateLimits?.admitClient(.token, clientID: client.clientID)
        guard client.tokenEndpointAuthMethod == .privateKeyJWT, let assertions else {
            throw failure("This client is not registered for private_key_jwt.")
        }
        try await assertions.verify(assertion, client: client)
        return client
    }

    /// RFC 6749 §2.3.1 / RFC 7617: `Basic base64(urlencode(id) ":" urlencode(secret))`.
    static func basicCredentials(_ request: Request) throws -> (id: String, secret: String)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return nil }
        guard let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"),
            let id = String(text[..<colon]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
            let secret = String(text[text.index(after: colon)...])
                .replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
            !id.isEmpty
        else {
            throw EndpointFailure(
                .invalidClient, "The Authorization header is not valid HTTP Basic credentials.",
                status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"sesame\""])
        }
        return (id, secret)
    }
}

/// RFC 7523 §2.2 form parameters.
enum ClientAssertionParameter {
    static let type = "client_assertion_type"
    static let assertion = "client_assertion"
}
