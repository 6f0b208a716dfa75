import SesameProtocol
import SesameStore

/// A request to `/token` (RFC 6749 §3.2), read from its form parameters into the grant it asks
/// for. Reading names the first problem (`invalid_request`, `unsupported_grant_type`); each
/// grant then checks its own values. There is no password grant (RFC 9700 §2.4).
package enum TokenRequest: Sendable, Equatable {
    case authorizationCode(AuthorizationCodeRequest)
    case refreshToken(RefreshTokenRequest)
    case clientCredentials(ClientCredentialsRequest)
    case tokenExchange(TokenExchangeRequest)
    case pinUnlock(PINUnlockRequest)
    case deviceCode(DeviceCodeRequest)

    /// The request the form parameters of `/token` make.
    package init(parameters form: [String: String]) throws(ProviderFailure) {
        guard let name = form[OAuthParameter.grantType], !name.isEmpty else {
            throw ProviderFailure(.invalidRequest, "grant_type is required.")
        }
        if name == PINUnlock.grantType {
            self = .pinUnlock(PINUnlockRequest(parameters: form))
            return
        }
        switch GrantType(rawValue: name) {
        case .authorizationCode?: self = .authorizationCode(AuthorizationCodeRequest(parameters: form))
        case .refreshToken?: self = .refreshToken(RefreshTokenRequest(parameters: form))
        case .clientCredentials?: self = .clientCredentials(ClientCredentialsRequest(parameters: form))
        case .tokenExchange?: self = .tokenExchange(TokenExchangeRequest(parameters: form))
        case .deviceCode?: self = .deviceCode(DeviceCodeRequest(parameters: form))
        case nil: throw ProviderFailure(.unsupportedGrantType, "grant_type '\(name.prefix(100))' is not supported.")
        }
    }

    /// The registered grant a client needs for this request; `nil` for the PIN grant, which every
    /// first-party client may use (docs/pin-devices.md).
    package var grantType: GrantType? {
        switch self {
        case .authorizationCode: .authorizationCode
        case .refreshToken: .refreshToken
        case .clientCredentials: .clientCredentials
        case .tokenExchange: .tokenExchange
        case .deviceCode: .deviceCode
        case .pinUnlock: nil
        }
    }

    /// The grant's name in metrics and request logs.
    package var metricName: String {
        switch self {
        case .pinUnlock: "pin"
        case .tokenExchange: "token_exchange"
        case .deviceCode: "device_code"
        default: grantType?.rawValue ?? ""
        }
    }
}

/// RFC 6749 §4.1.3 (with RFC 7636 §4.5 and Native SSO §3.4.1's `device_secret`).
package struct AuthorizationCodeRequest: Sendable, Equatable {
    package var code: String?
    package var redirectURI: String?
    package var codeVerifier: String?
    /// The device secret an app presents to join its device session (Native SSO).
    package var deviceSecret: String?

    package init(code: String?, redirectURI: String? = nil, codeVerifier: String? = nil, deviceSecret: String? = nil) {
        self.code = code
        self.redirectURI = redirectURI
        self.codeVerifier = codeVerifier
        self.deviceSecret = deviceSecret
    }

    package init(parameters form: [String: String]) {
        self.init(
            code: form[OAuthParameter.code], redirectURI: form[OAuthParameter.redirectURI],
            codeVerifier: form[OAuthParameter.codeVerifier], deviceSecret: form[NativeSSO.deviceSecretParameter])
    }
}

/// RFC 6749 §6 (with Native SSO §3.4.3's `device_secret`).
package struct RefreshTokenRequest: Sendable, Equatable {
    package var refreshToken: String?
    package var scope: String?
    package var deviceSecret: String?

    package init(refreshToken: String?, scope: String? = nil, deviceSecret: String? = nil) {
        self.refreshToken = refreshToken
        self.scope = scope
        self.deviceSecret = deviceSecret
    }

    package init(parameters form: [String: String]) {
        self.init(
            refreshToken: form[OAuthParameter.refreshToken], scope: form[OAuthParameter.scope],
            deviceSecret: form[NativeSSO.deviceSecretParameter])
    }
}

/// RFC 6749 §4.4.2.
package struct ClientCredentialsRequest: Sendable, Equatable {
    package var scope: String?

    package init(scope: String? = nil) { self.scope = scope }

    package init(parameters form: [String: String]) { self.init(scope: form[OAuthParameter.scope]) }
}

/// The PIN unlock grant (docs/pin-devices.md): the registration, the nonce it signed and the
/// signature.
package struct PINUnlockRequest: Sendable, Equatable {
    package var registrationID: String?
    package var nonce: String?
    package var signature: String?
    package var scope: String?

    package init(registrationID: String?, nonce: String?, signature: String?, scope: String? = nil) {
        self.registrationID = registrationID
        self.nonce = nonce
        self.signature = signature
        self.scope = scope
    }

    package init(parameters form: [String: String]) {
        self.init(
            registrationID: form[PINUnlock.registrationIDParameter], nonce: form[PINUnlock.nonceParameter],
            signature: form[PINUnlock.signatureParameter], scope: form[OAuthParameter.scope])
    }
}
