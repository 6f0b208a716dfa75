import Foundation

/// `GET /api/mfa` (bearer access token): the user's second factors.
public struct MFAEnrollmentList: Codable, Sendable, Equatable {
    /// The enrolled factors, pending ones included; empty when the user has no second factor.
    public var methods: [MFAEnrollmentStatus]

    /// A list of the user's second factors.
    public init(methods: [MFAEnrollmentStatus]) {
        self.methods = methods
    }
}

/// One enrolled (or pending) second factor.
public struct MFAEnrollmentStatus: Codable, Sendable, Equatable {
    /// Which second factor this is (email, SMS or TOTP).
    public var method: MFAMethod
    /// `false` for a TOTP secret that was issued but not yet confirmed with a code.
    public var confirmed: Bool
    /// Masked destination for email/SMS, e.g. `a***@example.com`, `+47******78`.
    public var destination: String?

    /// One factor's status; `destination` is given already masked.
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
    /// The Key Uri Format `otpauth://totp/<issuer>:<account>?secret=…` (same secret) to show as a
    /// QR code or open in an authenticator app.
    public var otpauthURI: String

    /// A new TOTP secret and its `otpauth://` URI.
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
    /// The one-time code the user typed (also the body of `POST /api/mfa/sms/confirm`).
    public var code: String

    /// A confirmation carrying `code`.
    public init(code: String) {
        self.code = code
    }
}

/// `POST /api/mfa/sms` body: the E.164 phone number codes go to.
public struct SMSEnrollmentRequest: Codable, Sendable, Equatable {
    /// E.164, e.g. `+4712345678`; once confirmed it becomes the profile's verified `phone_number`
    /// (OIDC Core §5.1).
    public var phoneNumber: String

    /// An SMS enrolment for `phoneNumber` (E.164).
    public init(phoneNumber: String) {
        self.phoneNumber = phoneNumber
    }

    enum CodingKeys: String, CodingKey {
        case phoneNumber = "phone_number"
    }
}
