import Foundation

/// `GET /api/mfa` (bearer access token): the user's second factors.
public struct MFAEnrollmentList: Codable, Sendable, Equatable {
    public var methods: [MFAEnrollmentStatus]

    public init(methods: [MFAEnrollmentStatus]) {
        self.methods = methods
    }
}

/// One enrolled (or pending) second factor.
public struct MFAEnrollmentStatus: Codable, Sendable, Equatable {
    public var method: MFAMethod
    /// `false` for a TOTP secret that was issued but not yet confirmed with a code.
    public var confirmed: Bool
    /// Masked destination for email/SMS, e.g. `a***@example.com`, `+47******78`.
    public var destination: String?

    public init(method: MFAMethod, confirmed: Bool, destination: String? = nil) {
        self.method = method
        self.confirmed = confirmed
        self.destination = destination
    }
}

/// `POST /api/mfa/totp`: a new TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s) and the
/// `otpauth://` URI authenticator apps scan. Enrolment completes with ``MFACodeSubmission``.
public struct TOTPEnrollment: Codable, Sendable, Equatable {
    /// RFC 4648 base32, no padding.
    public var secret: String
    public var otpauthURI: String

    public init(secret: String, otpauthURI: String) {
        self.secret = secret
        self.otpauthURI = otpauthURI
    }

    enum CodingKeys: String, CodingKey {
        case secret
        case otpauthURI = "otpauth_uri"
    }
}

/// `POST /api/mfa/totp/confirm` body: a code from the authenticator app.
public struct MFACodeSubmission: Codable, Sendable, Equatable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}

/// `POST /api/mfa/sms` body: the E.164 phone number codes go to.
public struct SMSEnrollmentRequest: Codable, Sendable, Equatable {
    public var phoneNumber: String

    public init(phoneNumber: String) {
        self.phoneNumber = phoneNumber
    }

    enum CodingKeys: String, CodingKey {
        case phoneNumber = "phone_number"
    }
}
