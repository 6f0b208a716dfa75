import Foundation
import SesameProtocol

/// Sesame's `device_name` extension of the device authorization request (RFC 8628 §3.1): the
/// name the device gives itself, shown to the approving user as "the device calls itself …" so
/// they can tell their TV from someone else's request.
enum DeviceName {
    /// The request parameter.
    static let parameter = DeviceAuthorization.deviceNameParameter
    /// The most characters the server keeps.
    static let maximumLength = DeviceAuthorization.maximumDeviceNameLength

    /// The name to send: trimmed, `nil` when empty. Throws
    /// ``SesameError/Code-swift.struct/invalidConfiguration`` for a name the server would refuse
    /// (over 64 characters, control characters): the rule both share,
    /// `DeviceAuthorization.checkDeviceName(_:)`.
    static func checked(_ name: String?) throws(SesameError) -> String? {
        switch DeviceAuthorization.checkDeviceName(name) {
        case .absent: return nil
        case .name(let name): return name
        case .refused:
            throw .invalidConfiguration(
                "the device name must be at most \(maximumLength) printable characters; pass a shorter deviceName such as \"Living room TV\"")
        }
    }
}
