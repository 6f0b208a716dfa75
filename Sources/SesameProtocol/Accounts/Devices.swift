import Foundation

/// A device registered to the user's account (`GET /api/devices`), e.g. for push or for
/// showing "where you are signed in".
public struct Device: Codable, Sendable, Equatable {
    /// App-chosen identifier, unique per user (1–128 characters).
    public var deviceID: String
    /// Name to show people, e.g. `Alice's iPhone` (trimmed, at most 128 characters).
    public var name: String
    /// Free-form kind, e.g. `ios`, `android`, `desktop`.
    public var type: String?
    /// Seconds since 1970.
    public var createdAt: Int

    /// A device as `GET /api/devices` lists it; `createdAt` is seconds since 1970.
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
    /// The user's registered devices, oldest first.
    public var devices: [Device]

    /// A list of `devices`.
    public init(devices: [Device]) {
        self.devices = devices
    }
}

/// `POST /api/devices` body; answered `201` with the ``Device``. Registering an existing
/// `device_id` again updates its name and type.
public struct DeviceRegistration: Codable, Sendable, Equatable {
    /// App-chosen identifier (`device_id`), unique per user: 1–128 characters, no control
    /// characters. Reusing one updates that device.
    public var deviceID: String
    /// Name to show people (trimmed, at most 128 characters, no control characters).
    public var name: String
    /// Free-form kind, e.g. `ios`, `android`, `desktop` (at most 32 characters); empty means none.
    public var type: String?

    /// A registration of `deviceID` under `name`, optionally with its `type`.
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
    /// The field is missing or empty.
    public static let required = "required"
    /// The value has the wrong form, e.g. not an email address, `http(s)` URL, E.164 number, date
    /// or time zone, or it contains control characters.
    public static let invalidFormat = "invalid_format"
    /// Shorter than allowed (a password under the policy's minimum); the message names the minimum.
    public static let tooShort = "too_short"
    /// Longer than allowed; the message names the maximum.
    public static let tooLong = "too_long"
    /// Another account uses the value, e.g. an email address (409 `email_taken`, 3001).
    public static let taken = "taken"
    /// A read-only claim (``ProfileUpdate/readOnlyClaims``) was sent, e.g. `email_verified` to
    /// `PATCH /api/profile`.
    public static let notWritable = "not_writable"
    /// The password equals the account's email or username, or is one of the most common passwords.
    public static let weakPassword = "weak_password"
    /// Every code above, as the OpenAPI document lists them.
    public static let all = [required, invalidFormat, tooShort, tooLong, taken, notWritable, weakPassword]
}
