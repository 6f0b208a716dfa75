import Foundation
import SesameProtocol
import SesameStore

/// RFC 8628 §3.4-3.5: the device polls `/token` with its `device_code`.
///
/// Each poll is recorded in one statement (``DeviceAuthorizationStore``), so polls on several
/// server processes share one interval: a pending request answers `authorization_pending`, or
/// `slow_down` when the poll came too early (and the interval grows by 5 seconds); a denied one
/// `access_denied`; an expired one `expired_token`. An approved request's tokens are issued once,
/// as for an authorization code (the approving sign-in's `acr`, `amr` and `auth_time`; a refresh
/// token when the client has the grant; an ID token for `openid`, without `nonce`; a Native SSO
/// device session with `device_sso`; bound to the DPoP key of the poll's proof).
package struct DeviceCodeGrant: Sendable {
    package let store: any IdentityStore & DeviceAuthorizationStore
    package let tokenIssuer: TokenIssuer
    package let sessionCap: SessionCap
    package let deviceSessions: DeviceSessions
    package let policy: DeviceAuthorizationPolicy
    package let now: @Sendable () -> Date

    package init(
        store: any IdentityStore & DeviceAuthorizationStore, tokenIssuer: TokenIssuer, sessionCap: SessionCap,
        deviceSessions: DeviceSessions, policy: DeviceAuthorizationPolicy, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.tokenIssuer = tokenIssuer
        self.sessionCap = sessionCap
        self.deviceSessions = deviceSessions
        self.policy = policy
        self.now = now
    }

    package func exchange(
        _ request: DeviceCodeRequest, client: ClientRecord, origin: RequestOrigin? = nil, confirmation: TokenConfirmation? = nil
    ) async throws -> TokenResponse {
        guard let deviceCode = request.deviceCode, !deviceCode.isEmpty, deviceCode.utf8.count <= 256 else {
            throw ProviderFailure(.invalidRequest, "device_code is required (RFC 8628 section 3.4).")
        }
        let digest = SecretDigest.of(deviceCode)
        let now = now()
        guard
            let poll = try await store.pollDeviceAuthorization(
                deviceCodeDigest: digest, clientID: client.clientID, now: now, tolerance: policy.pollTolerance,
                slowDownIncrement: DeviceAuthorization.slowDownIncrement)
        else {
            throw ProviderFailure(.invalidGrant, "The device_code is unknown or was issued to another client.")
        }
        if poll.status == .redeemed {
            throw ProviderFailure(.invalidGrant, "The device_code was used already; start a new device authorization.")
        }
        guard poll.expiresAt > now else {
            throw ProviderFailure(.expiredToken, "The device_code has expired; start a new device authorization.")
        }
        switch poll.status {
        case .pending:
            if poll.tooEarly {
                throw ProviderFailure(
                    .slowDown, "Polled sooner than the interval; wait \(poll.interval) seconds between polls from now on.")
            }
            throw ProviderFailure(.authorizationPending, "The user has not approved the request yet; poll again in \(poll.interval) seconds.")
        case .denied:
            throw ProviderFailure(.deviceAccessDenied, "The user denied the request; stop polling.")
        case .redeemed:
            throw ProviderFailure(.invalidGrant, "The device_code was used already; start a new device authorization.")
        case .approved:
            break
        }
        let resourceAuthorization = ResourceAuthorization(store: store)
        if !request.resources.isEmpty {
            // RFC 8707: an API the client may not have refuses the poll before the code is spent.
            _ = try await resourceAuthorization.audience(
                requested: request.resources, authorized: nil, client: client)
        }
        guard let record = try await store.redeemDeviceAuthorization(deviceCodeDigest: digest, now: now),
            let authentication = record.authentication
        else {
            throw ProviderFailure(.invalidGrant, "The device_code was used already; start a new device authorization.")
        }
        return try await issue(
            record, authentication: authentication, client: client, origin: origin, confirmation: confirmation, now: now,
            resources: request.resources, resourceAuthorization: resourceAuthorization)
    }

    private func issue(
        _ record: DeviceAuthorizationRecord, authentication: AuthenticationContext, client: ClientRecord,
        origin: RequestOrigin?, confirmation: TokenConfirmation?, now: Date, resources: [String],
        resourceAuthorization: ResourceAuthorization? = nil
    ) async throws -> TokenResponse {
        var sessionID = record.sessionID
        var device: DeviceSessions.Issue?
        let scopes = ScopeList.parse(record.scope)
        if scopes.contains(NativeSSO.scope), scopes.contains("openid"), let appGroup = client.appGroup {
            // The device's own session: the browser session that approved is on another device.
            device = try await deviceSessions.open(
                client: client, appGroup: appGroup, authentication: authentication, browserSessionID: nil,
                presented: nil, origin: origin)
            sessionID = device?.session.id
        }
        var response = try await GrantTokens(store: store, tokenIssuer: tokenIssuer, sessionCap: sessionCap).issue(
            client: client, authentication: authentication, scope: record.scope, sessionID: sessionID,
            familyID: SecureRandom.uuid(), nonce: nil, claims: nil,
            withRefreshToken: client.grantTypes.contains(.refreshToken), now: now,
            deviceSecretHash: device.map { DeviceSecret.hash($0.secret) }, origin: origin, confirmation: confirmation,
            resources: resources, resourceAuthorization: resourceAuthorization)
        response.deviceSecret = device?.secret
        return response
    }
}

/// RFC 8628 §3.4: the polling token request.
package struct DeviceCodeRequest: Sendable, Equatable {
    package var deviceCode: String?
    /// RFC 8707 §2: the APIs the access token is for; none: the client's default.
    package var resources: [String]

    package init(deviceCode: String?, resources: [String] = []) {
        self.deviceCode = deviceCode
        self.resources = resources
    }

    package init(parameters form: [String: String]) throws(ProviderFailure) {
        self.init(
            deviceCode: form[DeviceAuthorization.deviceCodeParameter],
            resources: try ResourceIndicator.parse(form[OAuthParameter.resource]))
    }
}
