import Foundation
import Logging
import SesameProtocol

extension SesameClient {
    /// Signs in on a device without a browser, the user approving on another device: the OAuth
    /// 2.0 Device Authorization Grant (RFC 8628). Iterate the result: it first gives the code to
    /// show (§3.3), then polls the token endpoint (§3.4-3.5) until the user approves, denies, or
    /// the code expires. See ``DeviceSignIn``.
    ///
    /// Nothing is sent until the iteration starts. The device authorization request (§3.1)
    /// carries the client authentication of the token endpoint; the polls go through the same
    /// path as every token request (DPoP proofs with ``SesameConfiguration/dpop``). The tokens
    /// become a session exactly as after ``signIn(with:options:)``: the ID token fully
    /// validated (it has no `nonce`: no authorization request carried one), stored, made
    /// current and announced, with Native SSO and DPoP binding as configured.
    ///
    /// - Parameters:
    ///   - scopes: the scopes to ask for (§3.1 `scope`); the configured ones by default. Must
    ///     include `openid`.
    ///   - deviceName: how the device calls itself, shown to the approving user ("the device
    ///     calls itself …", Sesame's `device_name`): at most 64 printable characters. Providers
    ///     other than Sesame ignore it.
    /// - Returns: the sign-in, as an `AsyncSequence` of ``DeviceSignIn/State``.
    public nonisolated func signInOnAnotherDevice(scopes: [String]? = nil, deviceName: String? = nil) -> DeviceSignIn {
        signInOnAnotherDevice(scopes: scopes, deviceName: deviceName, sleep: DeviceSignIn.taskSleep)
    }

    /// As above, waiting between polls with `sleep` (tests pass one that returns at once).
    nonisolated func signInOnAnotherDevice(scopes: [String]?, deviceName: String?, sleep: @escaping DeviceSignIn.Sleep)
        -> DeviceSignIn
    {
        DeviceSignIn(client: self, scopes: scopes, deviceName: deviceName, sleep: sleep)
    }

    /// RFC 8628 §3.1-3.2: discovery, the device authorization request, the checked response.
    func startDeviceSignIn(scopes: [String]?, deviceName: String?) async throws(SesameError) -> DeviceSignIn.Flow {
        let name = try DeviceName.checked(deviceName)
        let metadata = try await metadata()
        guard let endpoint = metadata.deviceAuthorizationEndpoint else {
            throw .invalidConfiguration(
                "the provider advertises no device_authorization_endpoint (RFC 8628 section 4); enable the device authorization grant on the server, or sign in with the browser")
        }
        let scopes = ssoScopes(scopes ?? configuration.scopes, metadata: metadata)
        guard scopes.contains("openid") else {
            throw .invalidConfiguration("the sign-in scopes must include \"openid\"")
        }
        let dpopKey = try dpopKeyForSignIn(metadata)
        let response = try await tokenEndpoint.deviceAuthorization(
            endpoint: endpoint, scopes: scopes, deviceName: name, metadata: metadata)
        let pending = try PendingDeviceAuthorization(response, now: clock.now())
        logger.info(
            "device sign-in started",
            metadata: [
                "issuer": "\(metadata.issuer)", "interval": "\(pending.schedule.interval)",
                "expires_at": "\(pending.schedule.expiresAt)",
            ])
        return DeviceSignIn.Flow(metadata: metadata, dpopKey: dpopKey, clock: clock, pending: pending)
    }

    /// RFC 8628 §3.4: one poll with the flow's `device_code`.
    func pollDeviceSignIn(_ flow: DeviceSignIn.Flow) async throws(SesameError) -> DevicePollOutcome {
        let outcome = try await tokenEndpoint.pollDeviceCode(
            flow.pending.deviceCode, metadata: flow.metadata, dpopKey: flow.dpopKey)
        switch outcome {
        case .pending: logger.debug("device sign-in still pending")
        case .slowDown: logger.debug("the provider asked the device to poll more slowly")
        case .denied: logger.info("device sign-in denied by the user")
        case .expired: logger.info("device sign-in expired")
        case .tokens: break
        }
        return outcome
    }

    /// RFC 8628 §3.5 success: the token response becomes a session as after a code exchange.
    /// The ID token is validated in full except `nonce` (OIDC Core §3.1.3.7 step 11 checks it
    /// only when the authorization request sent one, and the device grant sends none).
    func finishDeviceSignIn(_ tokens: TokenResponse, flow: DeviceSignIn.Flow) async throws(SesameError) -> Account {
        try await establishSession(
            tokens,
            expected: expectations(
                metadata: flow.metadata, nonce: nil, maxAge: nil, acrValues: nil, accessToken: tokens.accessToken),
            metadata: flow.metadata, username: nil, dpopKey: flow.dpopKey)
    }
}
