import Foundation

/// `POST /api/signup` body (account self-service). The profile claims travel
/// flattened beside the credentials: `{"client_id","email","password","username","name",...}`.
public struct SignUpRequest: Codable, Sendable, Equatable {
    /// The `client_id` of the app signing the user up; one that is not registered is 401
    /// `invalid_client` (1016).
    public var clientID: String
    /// The account's email address, where the verification code goes; 409 `email_taken` (3001)
    /// when an account has it.
    public var email: String
    /// The password, checked against the password policy (`weak_password`, 3002).
    public var password: String
    /// Defaults to the email address when absent.
    public var username: String?
    /// Optional OpenID standard claims to start the profile with.
    public var profile: ProfileUpdate

    /// A sign-up for `email` with `password`, optionally with a login `username` (default: the
    /// email) and `profile` claims to start with.
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

    /// Reads the credentials and the profile claims from the same flat JSON object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try container.decode(String.self, forKey: .clientID)
        email = try container.decode(String.self, forKey: .email)
        password = try container.decode(String.self, forKey: .password)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        profile = try ProfileUpdate(from: decoder)
    }

    /// Writes the profile claims and the credentials into one flat JSON object.
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
    /// The new account's subject identifier: the `sub` of its tokens and claims (OIDC Core §2).
    public var sub: String
    /// The account's email address, as the server stored it.
    public var email: String
    /// OIDC Core §5.1 `email_verified`: `false` until the code is confirmed with
    /// `POST /api/signup/confirm`. The account can sign in before that.
    public var emailVerified: Bool

    /// A sign-up answer for the new account `sub`.
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
    /// The address the code was sent to.
    public var email: String
    /// The 6-digit code from the email: single use, valid 15 minutes, 5 answers (wrong: 3004
    /// `invalid_verification_code` with `remaining_attempts`).
    public var code: String

    /// A confirmation of `code` for `email`.
    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

/// Answer of `POST /api/signup/confirm` and `POST /api/email/confirm`.
public struct EmailVerificationStatus: Codable, Sendable, Equatable {
    /// The address now verified: the account's email, after an email change the new one.
    public var email: String?
    /// OIDC Core §5.1 `email_verified`: `true` once the code was accepted.
    public var emailVerified: Bool

    /// A verification answer for `email`.
    public init(email: String? = nil, emailVerified: Bool) {
        self.email = email
        self.emailVerified = emailVerified
    }

    enum CodingKeys: String, CodingKey {
        case email
        case emailVerified = "email_verified"
    }
}
