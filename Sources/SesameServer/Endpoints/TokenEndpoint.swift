import Foundation
import Hummingbird
import SesameProtocol

/// The token endpoint, `POST /token` (RFC 6749 §3.2): authenticates the client and dispatches
/// to the grant. Supported grants: `authorization_code`, `refresh_token`, `client_credentials`,
/// RFC 8693 token exchange (Native SSO) and the PIN unlock grant.
/// There is no password grant (RFC 9700 §2.4). Responses carry `Cache-Control: no-store`
/// and `Pragma: no-cache` (RFC 6749 §5.1).
struct TokenEndpoint: Sendable {
    let clientAuthenticator: ClientAuthenticator
    let authorizationCode: AuthorizationCodeGrant
    let refreshToken: RefreshTokenGrant
    let clientCredentials: ClientCredentialsGrant
    /// RFC 8693 token exchange; `nil` without a device-session store.
    let tokenExchange: TokenExchangeGrant?
    /// The PIN unlock grant (``PINUnlockGrant``); `nil` without PIN support.
    let pinUnlock: PINUnlockGrant?
    let metrics: ServerMetrics

    /// The endpoint with its grants, built once from the server's parts.
    init(services: ServerServices) {
        let tokenIssuer = services.tokenIssuer
        clientAuthenticator = services.clientAuthenticator
        let deviceSessions = services.deviceSessions
        authorizationCode = AuthorizationCodeGrant(
            store: services.store, mfaStore: services.mfaStore, tokenIssuer: tokenIssuer, sessionCap: services.sessionCap,
            deviceSessions: deviceSessions,
            audit: services.audit, now: services.now)
        refreshToken = RefreshTokenGrant(
            store: services.store, tokenIssuer: tokenIssuer, metrics: services.metrics, audit: services.audit,
            deviceSessions: deviceSessions, now: services.now)
        clientCredentials = ClientCredentialsGrant(tokenIssuer: tokenIssuer)
        let nativeSSO = deviceSessions.map {
            NativeSSOExchange(
                store: services.store, sessions: $0, tokenIssuer: tokenIssuer, sessionCap: services.sessionCap,
                keyRing: services.keyRing, now: services.now)
        }
        let federation = services.federationExchange
        tokenExchange =
            nativeSSO == nil && federation == nil ? nil : TokenExchangeGrant(nativeSSO: nativeSSO, federation: federation)
        pinUnlock = PINServices(services).map {
            PINUnlockGrant(
                store: services.store, pin: $0, tokenIssuer: tokenIssuer, sessionCap: services.sessionCap, now: services.now)
        }
        metrics = services.metrics
    }

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        if form["access_token"] != nil || request.uri.query?.isEmpty == false {
            throw EndpointFailure(.invalidRequest, "Send token request parameters in the body only.")
        }
        let client = try await clientAuthenticator.authenticate(request, form: form)
        context.annotations.record(clientID: client.clientID)

        guard let grantName = form[OAuthParameter.grantType], !grantName.isEmpty else {
            throw EndpointFailure(.invalidRequest, "grant_type is required.")
        }
        if grantName == PINUnlock.grantType, let pinUnlock {
            // First-party clients only, whatever grants they registered (docs/pin-devices.md).
            let response = try await pinUnlock.exchange(form, client: client, context: context)
            context.annotations.record(outcome: "issued_pin")
            metrics.tokenIssued(grantType: "pin")
            return JSONResponse.make(response)
        }
        guard let grant = GrantType(rawValue: grantName) else {
            throw EndpointFailure(.unsupportedGrantType, "grant_type '\(grantName)' is not supported.")
        }
        guard client.grantTypes.contains(grant) else {
            throw EndpointFailure(.unauthorizedClient, "This client may not use the \(grantName) grant.")
        }
        let response: TokenResponse
        switch grant {
        case .authorizationCode:
            response = try await authorizationCode.exchange(form, client: client, context: context)
        case .refreshToken:
            response = try await refreshToken.exchange(form, client: client, context: context)
        case .clientCredentials:
            response = try await clientCredentials.exchange(form, client: client)
        case .tokenExchange:
            guard let tokenExchange else {
                throw EndpointFailure(.unsupportedGrantType, "Token exchange needs a store with device sessions or federation.")
            }
            response = try await tokenExchange.exchange(form, client: client, context: context)
        }
        let name = grant == .tokenExchange ? "token_exchange" : grant.rawValue
        context.annotations.record(outcome: "issued_\(name)")
        metrics.tokenIssued(grantType: name)
        return JSONResponse.make(response)
    }
}

