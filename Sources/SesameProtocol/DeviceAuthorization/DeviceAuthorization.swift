import Foundation

/// OAuth 2.0 Device Authorization Grant (RFC 8628): what the device, the server and the SDK
/// share.
///
/// - §3.1: the device asks `device_authorization_endpoint` for a code pair (``DeviceAuthorizationResponse``).
/// - §3.3: it shows the ``UserCode`` and the verification URI (or a QR code of the complete URI)
///   to the user, who approves on another device.
/// - §3.4-3.5: meanwhile it polls `/token` with ``GrantType/deviceCode`` and its `device_code`,
///   at the `interval`, answered `authorization_pending`, `slow_down` (interval + 5 s),
///   `access_denied` or `expired_token` until the tokens come.
public enum DeviceAuthorization {
    /// RFC 8628 §3.4 `grant_type` of the polling token request.
    public static let grantType = GrantType.deviceCode.rawValue
    /// RFC 8628 §3.2 response member and §3.4 token request parameter.
    public static let deviceCodeParameter = "device_code"
    /// RFC 8628 §3.2 response member; also the query parameter of `verification_uri_complete`.
    public static let userCodeParameter = "user_code"
    /// Sesame's extension of the §3.1 request: the name the device gives itself (at most
    /// ``maximumDeviceNameLength`` printable characters), shown to the person who approves.
    public static let deviceNameParameter = "device_name"
    /// The longest `device_name` the server accepts.
    public static let maximumDeviceNameLength = 64
    /// What ``checkDeviceName(_:)`` made of a `device_name`.
    public enum DeviceNameCheck: Sendable, Equatable {
        /// None was given, or only spaces.
        case absent
        /// The name to send and show, trimmed.
        case name(String)
        /// Longer than ``maximumDeviceNameLength`` characters, or holding control or format
        /// characters (which could disguise what the approving page shows).
        case refused
    }

    /// The one rule for `device_name`, applied by the SDK before sending and by the server on
    /// receipt: trimmed, empty counts as absent, at most ``maximumDeviceNameLength`` characters,
    /// no control or format characters.
    public static func checkDeviceName(_ text: String?) -> DeviceNameCheck {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return .absent
        }
        guard trimmed.count <= maximumDeviceNameLength,
            !trimmed.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            })
        else { return .refused }
        return .name(trimmed)
    }
    /// RFC 8628 §4 discovery metadata `device_authorization_endpoint`.
    public static let discoveryKey = "device_authorization_endpoint"
    /// RFC 8628 §3.2: the polling interval when the server names none, in seconds.
    public static let defaultInterval = 5
    /// RFC 8628 §3.5: how much `slow_down` adds to the interval, in seconds, for this and all
    /// later requests.
    public static let slowDownIncrement = 5
}

/// RFC 8628 §3.2: the device authorization response.
public struct DeviceAuthorizationResponse: Codable, Sendable, Equatable {
    /// The device verification code: the device's secret, sent only to `/token` (never shown).
    public var deviceCode: String
    /// The end-user verification code the user types on the verification page.
    public var userCode: String
    /// The verification page, short enough to type (§3.3).
    public var verificationURI: URL
    /// The verification page with the user code filled in (§3.3.1), for a QR code or a link.
    /// The user still confirms on the page (§5.4).
    public var verificationURIComplete: URL?
    /// Seconds until both codes expire.
    public var expiresIn: Int
    /// The minimum seconds between polls; ``DeviceAuthorization/defaultInterval`` when absent.
    public var interval: Int?

    /// A response with every member given.
    public init(
        deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL?,
        expiresIn: Int, interval: Int?
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
    }
}
