import Foundation

/// A device registered to the user's account (`GET /api/devices`), e.g. for push or for
/// showing "where you are signed in".
public struct Device: Codable, Sendable, Equatable {
    /// App-chosen identifier, unique per user (1–128 characters).
    public var deviceID: String
    public var name: String
    /// Free-form kind, e.g. `ios`, `android`, `desktop`.
    public var type: String?
    /// Seconds since 1970.
    public var createdAt: Int

    public init(deviceID: String, name: String, type: String? = nil, createdAt: Int) {
        self.deviceID = deviceID
        self.name = name
        self.type = type
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case name, type
        case deviceID = "device_id"
        case createdAt = "created_at"
    }
}

/// `GET /api/devices` answer.
public struct DeviceList: Codable, Sendable, Equatable {
    public var devices: [Device]

    public init(devices: [Device]) {
        self.devices = devices
    }
}

/// `POST /api/devices` body; answered `201` with the ``Device``. Registering an existing
/// `device_id` again updates its name and type.
public struct DeviceRegistration: Codable, Sendable, Equatable {
    public var deviceID: String
    public var name: String
    public var type: String?

    public init(deviceID: String, name: String, type: String? = nil) {
        self.deviceID = deviceID
        self.name = name
        self.type = type
    }

    enum CodingKeys: String, CodingKey {
        case name, type
        case deviceID = "device_id"
    }
}

/// Machine-readable `error_details[].code` values (docs/errors.md).
public enum FieldErrorCode {
    public static let required = "required"
    public static let invalidFormat = "invalid_format"
    public static let tooShort = "too_short"
    public static let tooLong = "too_long"
    public static let taken = "taken"
    public static let notWritable = "not_writable"
    public static let weakPassword = "weak_password"
    public static let all = [required, invalidFormat, tooShort, tooLong, taken, notWritable, weakPassword]
}
