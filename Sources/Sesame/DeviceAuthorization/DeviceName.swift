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
    /// (over 64 characters, control characters).
    static func checked(_ name: String?) throws(SesameError) -> String? {
        guard let name else { return nil }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumLength,
            !trimmed.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            })
        else {
            throw .invalidConfiguration(
                "the device name must be at most \(maximumLength) printable characters; pass a shorter deviceName such as \"Living room TV\"")
        }
        return trimmed
    }
}
