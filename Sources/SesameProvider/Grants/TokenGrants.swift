import SesameJOSE
import SesameProtocol
import SesameStore

/// The grants of `/token` in one place (RFC 6749 §3.2): runs the grant a ``TokenRequest`` asks
/// for, once the client may use it (§5.2 `unauthorized_client`). The server's token endpoint
/// reads the request and authenticates the client; everything after is here.
package struct TokenGrants: Sendable {
    package let authorizationCode: AuthorizationCodeGrant
    package let refreshToken: RefreshTokenGrant
    package let clientCredentials: ClientCredentialsGrant
    /// RFC 8693 token exchange (Native SSO, federation).
    package let tokenExchange: TokenExchangeGrant
    /// The PIN unlock grant.
    package let pinUnlock: PINUnlockGrant
    /// RFC 8628 device authorization grant.
    package let deviceCode: DeviceCodeGrant

    package init(
        authorizationCode: AuthorizationCodeGrant, refreshToken: RefreshTokenGrant,
        clientCredentials: ClientCredentialsGrant, tokenExchange: TokenExchangeGrant, pinUnlock: PINUnlockGrant,
        deviceCode: DeviceCodeGrant
    ) {
        self.authorizationCode = authorizationCode
        self.refreshToken = refreshToken
        self.clientCredentials = clientCredentials
        self.tokenExchange = tokenExchange
        self.pinUnlock = pinUnlock
        self.deviceCode = deviceCode
    }

    /// The tokens `request` earns `client`, which has authenticated. `dpop` is the request's
    /// verified DPoP proof (RFC 9449 §5): the tokens are bound to its key. A client registered
    /// with `dpop_bound_access_tokens` must send one (§5.2). `certificate` is the TLS client
    /// certificate the request came with: a client registered with
    /// `tls_client_certificate_bound_access_tokens` gets access tokens bound to it (RFC 8705 §3),
    /// unless the request binds them to a DPoP key instead.
    package func issue(
        _ request: TokenRequest, client: ClientRecord, origin: RequestOrigin, dpop: VerifiedDPoPProof? = nil,
        certificate: ClientCertificate? = nil
    ) async throws -> TokenResponse {
        if client.dpopBoundAccessTokens, dpop == nil {
            throw DPoPFailure.invalidProof(
                "This client is registered with dpop_bound_access_tokens: send a DPoP proof with every token request (RFC 9449 section 5).")
                .providerFailure
        }
        var confirmation = dpop.map { TokenConfirmation(jkt: $0.thumbprint) }
        if client.certificateBoundAccessTokens, confirmation == nil {
            guard let certificate else {
                throw ProviderFailure(
                    .invalidRequest,
                    "This client is registered with tls_client_certificate_bound_access_tokens: connect with its TLS client certificate (RFC 8705 section 3).")
            }
            confirmation = TokenConfirmation(certificateThumbprint: certificate.thumbprint)
        }
        // The PIN grant has no registered grant type: first-party clients only, whatever grants
        // they registered (docs/pin-devices.md).
        if let grant = request.grantType, !client.grantTypes.contains(grant) {
            throw ProviderFailure(.unauthorizedClient, "This client may not use the \(grant.rawValue) grant.")
        }
        switch request {
        case .authorizationCode(let code):
            return try await authorizationCode.exchange(code, client: client, origin: origin, confirmation: confirmation)
        case .refreshToken(let refresh):
            return try await refreshToken.exchange(refresh, client: client, origin: origin, confirmation: confirmation)
        case .clientCredentials(let credentials):
            return try await clientCredentials.exchange(credentials, client: client, confirmation: confirmation)
        case .tokenExchange(let exchange):
            return try await tokenExchange.exchange(exchange, client: client, origin: origin, confirmation: confirmation)
        case .pinUnlock(let unlock):
            return try await pinUnlock.exchange(unlock, client: client, origin: origin, confirmation: confirmation)
        case .deviceCode(let poll):
            return try await deviceCode.exchange(poll, client: client, origin: origin, confirmation: confirmation)
        }
    }
}
