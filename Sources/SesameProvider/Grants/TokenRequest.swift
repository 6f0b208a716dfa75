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
        case .authorizationCode?: self = .authorizationCode(try AuthorizationCodeRequest(parameters: form))
        case .refreshToken?: self = .refreshToken(try RefreshTokenRequest(parameters: form))
        case .clientCredentials?: self = .clientCredentials(try ClientCredentialsRequest(parameters: form))
        case .tokenExchange?: self = .tokenExchange(TokenExchangeRequest(parameters: form))
        case .deviceCode?: self = .deviceCode(try DeviceCodeRequest(parameters: form))
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

/// RFC 6749 §4.1.3 (with RFC 7636 §4.5, Native SSO §3.4.1's `device_secret` and RFC 8707 §2's
/// `resource`).
package struct AuthorizationCodeRequest: Sendable, Equatable {
    package var code: String?
    package var redirectURI: String?
    package var codeVerifier: String?
    /// The device secret an app presents to join its device session (Native SSO).
    package var deviceSecret: String?
    /// The APIs the access token is for, among those the authorization request named.
    package var resources: [String]

    package init(
        code: String?, redirectURI: String? = nil, codeVerifier: String? = nil, deviceSecret: String? = nil,
        resources: [String] = []
    ) {
        self.code = code
        self.redirectURI = redirectURI
        self.codeVerifier = codeVerifier
        self.deviceSecret = deviceSecret
        self.resources = resources
    }

    package init(parameters form: [String: String]) throws(ProviderFailure) {
        self.init(
            code: form[OAuthParameter.code], redirectURI: form[OAuthParameter.redirectURI],
            codeVerifier: form[OAuthParameter.codeVerifier], deviceSecret: form[NativeSSO.deviceSecretParameter],
            resources: try ResourceIndicator.parse(form[OAuthParameter.resource]))
    }
}

/// RFC 6749 §6 (with Native SSO §3.4.3's `device_secret` and RFC 8707 §2.2's `resource`).
package struct RefreshTokenRequest: Sendable, Equatable {
    package var refreshToken: String?
    package var scope: String?
    package var deviceSecret: String?
    /// The APIs the access token is for, among those of the grant (§2.2).
    package var resources: [String]

    package init(refreshToken: String?, scope: String? = nil, deviceSecret: String? = nil, resources: [String] = []) {
        self.refreshToken = refreshToken
        self.scope = scope
        self.deviceSecret = deviceSecret
        self.resources = resources
    }

    package init(parameters form: [String: String]) throws(ProviderFailure) {
        self.init(
            refreshToken: form[OAuthParameter.refreshToken], scope: form[OAuthParameter.scope],
            deviceSecret: form[NativeSSO.deviceSecretParameter],
            resources: try ResourceIndicator.parse(form[OAuthParameter.resource]))
    }
}

/// RFC 6749 §4.4.2 (with RFC 8707 §2's `resource`).
package struct ClientCredentialsRequest: Sendable, Equatable {
    package var scope: String?
    /// The APIs the access token is for; none: the client's default.
    package var resources: [String]

    package init(scope: String? = nil, resources: [String] = []) {
        self.scope = scope
        self.resources = resources
    }

    package init(parameters form: [String: String]) throws(ProviderFailure) {
        self.init(scope: form[OAuthParameter.scope], resources: try ResourceIndicator.parse(form[OAuthParameter.resource]))
    }
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
