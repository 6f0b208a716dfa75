import Foundation

/// `POST /api/signup` body (account self-service). The profile claims travel
/// flattened beside the credentials: `{"client_id","email","password","username","name",...}`.
public struct SignUpRequest: Codable, Sendable, Equatable {
    public var clientID: String
    public var email: String
    public var password: String
    /// Defaults to the email address when absent.
    public var username: String?
    /// Optional OpenID standard claims to start the profile with.
    public var profile: ProfileUpdate

    public init(
        clientID: String, email: String, password: String, username: String? = nil,
        profile: ProfileUpdate = ProfileUpdate()
    ) {
        self.clientID = clientID
        self.email = email
        self.password = password
        self.username = username
        self.profile = profile
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case email, password, username
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try container.decode(String.self, forKey: .clientID)
        email = try container.decode(String.self, forKey: .email)
        password = try container.decode(String.self, forKey: .password)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        profile = try ProfileUpdate(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try profile.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(email, forKey: .email)
        try container.encode(password, forKey: .password)
        try container.encodeIfPresent(username, forKey: .username)
    }
}

/// `201` answer to ``SignUpRequest``: the new account, not yet verified. A code went to `email`.
public struct SignUpResponse: Codable, Sendable, Equatable {
    public var sub: String
    public var email: String
    public var emailVerified: Bool

    public init(sub: String, email: String, emailVerified: Bool) {
        self.sub = sub
        self.email = email
        self.emailVerified = emailVerified
    }

    enum CodingKeys: String, CodingKey {
        case sub, email
        case emailVerified = "email_verified"
    }
}

/// `POST /api/signup/confirm` body: the emailed verification code.
public struct EmailVerificationRequest: Codable, Sendable, Equatable {
    public var email: String
    public var code: String

    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

/// Answer of `POST /api/signup/confirm` and `POST /api/email/confirm`.
public struct EmailVerificationStatus: Codable, Sendable, Equatable {
    public var email: String?
    public var emailVerified: Bool

    public init(email: String? = nil, emailVerified: Bool) {
        self.email = email
        self.emailVerified = emailVerified
    }

    enum CodingKeys: String, CodingKey {
        case email
        case emailVerified = "email_verified"
    }
}
