import Foundation
import SesameProtocol

/// A device authorization response (RFC 8628 §3.2) checked rule by rule, split into what the
/// device keeps (the `device_code`, the poll schedule) and what it shows (``DeviceCodePrompt``).
///
/// Refused with ``SesameError/Code-swift.struct/protocolViolation`` (the response decoded, but
/// breaks a rule): an empty or over-long code, a code with control characters (it would reach a
/// terminal or a label as is), a verification URI that is not https (http only on a loopback
/// host, as for the provider's endpoints) or that hides a user name before its host.
struct PendingDeviceAuthorization: Sendable {
    /// The longest `device_code` and `user_code` accepted, in UTF-8 bytes.
    static let maximumCodeLength = 1024
    /// The longest verification URI accepted, in characters.
    static let maximumURILength = 2048

    /// §3.2 `device_code`: sent to the token endpoint only, never shown or logged.
    let deviceCode: String
    /// What the user sees.
    let prompt: DeviceCodePrompt
    /// When to poll and when to stop.
    var schedule: DevicePollSchedule

    /// The checked response, received at `now`.
    init(_ response: DeviceAuthorizationResponse, now: Date) throws(SesameError) {
        // §3.2: device_code and user_code are REQUIRED strings.
        try Self.checkCode(response.deviceCode, name: "device_code")
        try Self.checkCode(response.userCode, name: "user_code")
        // §3.2 verification_uri REQUIRED, verification_uri_complete OPTIONAL. The user signs in
        // on that page: TLS, as for the authorization endpoint (RFC 6749 §3.1), with plain http
        // only on a loopback host during development.
        try Self.checkURI(response.verificationURI, name: "verification_uri")
        if let complete = response.verificationURIComplete {
            try Self.checkURI(complete, name: "verification_uri_complete")
        }
        deviceCode = response.deviceCode
        schedule = DevicePollSchedule(interval: response.interval, expiresIn: response.expiresIn, now: now)
        prompt = DeviceCodePrompt(
            userCode: UserCode(typed: response.userCode)?.description ?? response.userCode,
            verificationURI: response.verificationURI, verificationURIComplete: response.verificationURIComplete,
            expiresAt: schedule.expiresAt)
    }

    private static func checkCode(_ code: String, name: String) throws(SesameError) {
        guard !code.isEmpty, code.utf8.count <= maximumCodeLength else {
            throw .protocolViolation(
                "the device authorization response's \(name) is empty or longer than \(maximumCodeLength) bytes (RFC 8628 section 3.2); the provider must send a short non-empty code")
        }
        guard !code.unicodeScalars.contains(where: Self.isControl) else {
            throw .protocolViolation(
                "the device authorization response's \(name) contains control characters; the provider must send printable codes (RFC 8628 section 6.1)")
        }
    }

    private static func checkURI(_ uri: URL, name: String) throws(SesameError) {
        let text = uri.absoluteString
        guard text.count <= maximumURILength, !text.unicodeScalars.contains(where: Self.isControl),
            let scheme = uri.scheme?.lowercased(), let host = uri.host, !host.isEmpty
        else {
            throw .protocolViolation(
                "the device authorization response's \(name) is not an absolute URL of at most \(maximumURILength) characters (RFC 8628 section 3.2)")
        }
        guard scheme == "https" || (scheme == "http" && LoopbackHost.contains(host)) else {
            throw .protocolViolation(
                "the device authorization response's \(name) \(text) does not use https (plain http is only accepted on a loopback host); the provider must serve its verification page over https")
        }
        // https://id.example.com@evil.example reads as id.example.com to a hurried user.
        guard uri.user == nil, uri.password == nil else {
            throw .protocolViolation(
                "the device authorization response's \(name) carries a user name before its host; the provider must send a plain https URL")
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
