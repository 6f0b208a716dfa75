import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// The device authorization grant's requests (RFC 8628), without HTTP: issuing a code pair to a
/// device (§3.1-3.2), finding the request a user typed the code of (§3.3, counted by
/// ``UserCodeThrottle``), and recording the user's decision.
///
/// The verification page signs the user in through the server's own `/authorize`, for the
/// device's client, with the redirect URI ``callbackPath`` and a PKCE challenge derived from the
/// user code with the deployment's master key (``browserVerifier(userCodeDigest:)``): the code
/// that comes back can only be turned into an approval by the server, for that request, after
/// the user confirms it on the page (§5.4: never approved from the link alone).
package struct DeviceAuthorizations: Sendable {
    package let store: any ProviderStore
    package let policy: DeviceAuthorizationPolicy
    /// The issuer identifier: `verification_uri` is under it.
    package let issuer: String
    package let now: @Sendable () -> Date
    private let verifierKey: SymmetricKey

    /// The verification page (§3.2 `verification_uri`), under the issuer.
    package static let pagePath = "/device"
    /// Where the page's sign-in returns with its code.
    package static let callbackPath = "/device/callback"
    /// Longest `device_name` kept.
    package static let maximumDeviceNameLength = DeviceAuthorization.maximumDeviceNameLength

    package init(
        store: any ProviderStore, policy: DeviceAuthorizationPolicy, issuer: String, masterKey: SymmetricKey,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.policy = policy
        self.issuer = issuer
        self.now = now
        verifierKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("sesame device pkce verifier v1".utf8), outputByteCount: 32)
    }

    /// The redirect URI of the page's sign-in.
    package var callbackURI: String { issuer + Self.callbackPath }

    /// The guessing limits of the page.
    package var throttle: UserCodeThrottle { UserCodeThrottle(store: store, policy: policy, now: now) }

    /// §3.1-3.2: a new pending request for `client`, which has authenticated. `scope` must name
    /// scopes the client may ask for; `deviceName` is Sesame's optional `device_name`.
    package func start(client: ClientRecord, scope: String?, deviceName: String?) async throws -> DeviceAuthorizationResponse {
        guard client.grantTypes.contains(.deviceCode) else {
            throw ProviderFailure(
                .unauthorizedClient,
                "This client may not use the device authorization grant; register it with --grant \(GrantType.deviceCode.rawValue).")
        }
        let scopes = ScopeList.parse(scope)
        guard !scopes.isEmpty else { throw ProviderFailure(.invalidScope, "scope is required.") }
        let allowed = try await ResourceAuthorization(store: store).allowedScopes(client)
        if let disallowed = scopes.first(where: { !allowed.contains($0) }) {
            throw ProviderFailure(.invalidScope, AuthorizationRequestValidator.disallowedScope(disallowed))
        }
        let name = try Self.deviceName(deviceName)
        let now = now()
        // The client's own timing when registered with one, else the server's.
        let lifetime = client.deviceCodeLifetime.map(TimeInterval.init) ?? policy.lifetime
        let interval = max(1, client.devicePollInterval ?? policy.interval)
        let deviceCode = SecureRandom.token()
        for _ in 0..<5 {
            let userCode = UserCode.random()
            do {
                try await store.insertDeviceAuthorization(
                    DeviceAuthorizationRecord(
                        deviceCodeDigest: SecretDigest.of(deviceCode), userCodeDigest: SecretDigest.of(userCode.normalized),
                        clientID: client.clientID, scope: scopes.joined(separator: " "), deviceName: name, createdAt: now,
                        expiresAt: now.addingTimeInterval(lifetime), interval: interval))
            } catch StoreError.conflict {
                continue  // a live request holds this user code: draw another
            }
            let page = issuer + Self.pagePath
            return DeviceAuthorizationResponse(
                deviceCode: deviceCode, userCode: userCode.description, verificationURI: URL(string: page)!,
                verificationURIComplete: URL(
                    string: page + "?" + FormURLEncoding.encode([(DeviceAuthorization.userCodeParameter, userCode.description)])),
                expiresIn: Int(lifetime), interval: interval)
        }
        throw ProviderFailure(.temporarilyUnavailable, "No free user code was found; retry the device authorization request.")
    }

    /// A `device_name` as the page may show it (``DeviceAuthorization/checkDeviceName(_:)``).
    static func deviceName(_ text: String?) throws(ProviderFailure) -> String? {
        switch DeviceAuthorization.checkDeviceName(text) {
        case .absent: return nil
        case .name(let name): return name
        case .refused:
            throw ProviderFailure(
                .invalidRequest, "device_name must be at most \(maximumDeviceNameLength) printable characters.")
        }
    }

    /// What a typed user code found.
    package enum Lookup: Sendable {
        /// A pending, unexpired request and its client.
        case pending(DeviceAuthorizationRecord, ClientRecord)
        /// Not 8 letters of the code alphabet: said so, not counted as a guess.
        case malformed
        /// No pending request has this code (unknown, expired, already decided): counted.
        case unknown
        /// Too many wrong codes: retry after this many seconds; nothing was looked up.
        case throttled(retryAfter: Int, lock: UserCodeThrottle.Lock)
    }

    /// §3.3: the pending request of the code the user typed, counting wrong codes (§5.1).
    package func lookUp(typed: String, origin: RequestOrigin?) async throws -> Lookup {
        guard let userCode = UserCode(typed: typed) else { return .malformed }
        let throttle = throttle
        let address = origin?.clientAddress
        if let (retryAfter, lock) = try await throttle.lockout(address: address) {
            return .throttled(retryAfter: retryAfter, lock: lock)
        }
        // Counted before it is checked, so attempts arriving together cannot outrun the limit.
        guard let admission = try await throttle.admit(address: address) else {
            let (retryAfter, lock) = try await throttle.lockout(address: address) ?? (1, .deployment)
            return .throttled(retryAfter: retryAfter, lock: lock)
        }
        if let record = try await pendingRecord(userCodeDigest: SecretDigest.of(userCode.normalized)),
            let client = try await store.client(id: record.clientID)
        {
            try await throttle.forgive(admission)
            return .pending(record, client)
        }
        return .unknown
    }

    /// The pending, unexpired request with this user code digest, without counting anything
    /// (the page's later steps carry a code already found once).
    package func pendingRecord(userCodeDigest: String) async throws -> DeviceAuthorizationRecord? {
        guard let record = try await store.deviceAuthorization(userCodeDigest: userCodeDigest),
            record.status == .pending, record.expiresAt > now()
        else { return nil }
        return record
    }

    /// The PKCE verifier of the page's sign-in for a request: HMAC-SHA-256 of the user code's
    /// digest under a key derived from the master key, base64url (43 characters, RFC 7636 §4.1).
    package func browserVerifier(userCodeDigest: String) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(userCodeDigest.utf8), using: verifierKey)))
    }

    /// The parameters of the page's sign-in for `record`: the device's client and scopes, the
    /// callback, the user code's digest as `state`, and the derived PKCE challenge.
    package func signInParameters(for record: DeviceAuthorizationRecord, uiLocales: String?) -> [String: String] {
        var parameters = [
            OAuthParameter.clientID: record.clientID, OAuthParameter.redirectURI: callbackURI,
            OAuthParameter.responseType: "code", OAuthParameter.scope: record.scope,
            OAuthParameter.state: record.userCodeDigest,
            OAuthParameter.codeChallenge: PKCE.challenge(for: browserVerifier(userCodeDigest: record.userCodeDigest)),
            OAuthParameter.codeChallengeMethod: "S256",
        ]
        if let uiLocales { parameters[OAuthParameter.uiLocales] = uiLocales }
        return parameters
    }

    /// The user's decision on the page (§3.3): `code` is the page's sign-in code, redeemed here
    /// (once, with the derived verifier), so only a user who signed in for this very request
    /// decides it. Answers the authentication that decided, or `nil` when the code or the
    /// request is no longer good.
    package func decide(
        approve: Bool, userCodeDigest: String, code: String, origin: RequestOrigin?, audit: AuditLog
    ) async throws -> AuthenticationContext? {
        guard !code.isEmpty, code.utf8.count <= 256,
            let record = try await pendingRecord(userCodeDigest: userCodeDigest),
            case .redeemed(let signIn) = try await store.redeemAuthorizationCode(digest: SecretDigest.of(code), now: now()),
            ConstantTime.equals(signIn.clientID, record.clientID), signIn.redirectURI == callbackURI,
            let challenge = signIn.codeChallenge,
            PKCE.verify(verifier: browserVerifier(userCodeDigest: userCodeDigest), challenge: challenge)
        else { return nil }
        let decided =
            approve
            ? try await store.approveDeviceAuthorization(
                userCodeDigest: userCodeDigest, authentication: signIn.authentication, sessionID: signIn.sessionID,
                now: now())
            : try await store.denyDeviceAuthorization(userCodeDigest: userCodeDigest, now: now())
        guard decided else { return nil }
        audit.record(
            approve ? .deviceApproved : .deviceDenied, origin: origin, clientID: record.clientID,
            userID: signIn.authentication.userID, detail: record.deviceName.map { ["device_name": $0] } ?? [:])
        return signIn.authentication
    }
}
