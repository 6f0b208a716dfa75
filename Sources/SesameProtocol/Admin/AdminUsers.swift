import Foundation

/// The admin API's view of a user in a list (`GET /admin/api/users`, issue #47). Times are
/// seconds since 1970.
public struct AdminUserSummary: Codable, Sendable, Equatable {
    /// The subject (`sub`) of the user's tokens.
    public var id: String
    /// The login name, lowercased.
    public var username: String
    /// The email address, lowercased.
    public var email: String
    /// Whether the email address was confirmed.
    public var emailVerified: Bool
    /// The `name` claim, when the profile has one.
    public var name: String?
    /// When it was created (seconds since 1970).
    public var createdAt: Int
    /// When an administrator disabled the account; absent while it is enabled.
    public var disabledAt: Int?
    /// The operator role (`admin`, `helpdesk`, `auditor`), absent for other users.
    public var role: String?
    /// Which field the search matched (`username`, `email`, `name`, `sub`).
    public var matchedBy: String?

    /// A value with every member given.
    public init(
        id: String, username: String, email: String, emailVerified: Bool, name: String?, createdAt: Int,
        disabledAt: Int?, role: String?, matchedBy: String?
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.createdAt = createdAt
        self.disabledAt = disabledAt
        self.role = role
        self.matchedBy = matchedBy
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email, name, role
        case emailVerified = "email_verified"
        case createdAt = "created_at"
        case disabledAt = "disabled_at"
        case matchedBy = "matched_by"
    }
}

/// `GET /admin/api/users?q=…&cursor=…&limit=…`: a page of matches and where the next begins.
public struct AdminUserPage: Codable, Sendable, Equatable {
    /// The users of this page, in search order.
    public var users: [AdminUserSummary]
    /// Pass as `cursor` for the next page; absent on the last one.
    public var nextCursor: String?

    /// A value with every member given.
    public init(users: [AdminUserSummary], nextCursor: String?) {
        self.users = users
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case users
        case nextCursor = "next_cursor"
    }
}

/// `GET /admin/api/users/{id}`: everything a help desk looks at, never a secret (no password
/// hash, no TOTP secret, no key material).
public struct AdminUserDetail: Codable, Sendable, Equatable {
    /// The user.
    public var user: AdminUserSummary
    /// The `phone_number` claim (E.164).
    public var phoneNumber: String?
    /// Whether the phone number was confirmed.
    public var phoneNumberVerified: Bool?
    /// When the profile last changed (seconds since 1970).
    public var updatedAt: Int
    /// The last successful sign-in the audit log holds.
    public var lastSignInAt: Int?
    /// Whether the user can sign in with a password (federated-only users cannot).
    public var hasPassword: Bool
    /// Second factors and whether each is confirmed.
    public var factors: [MFAEnrollmentStatus]
    /// The account's passkeys.
    public var passkeys: [Passkey]
    /// The user's PIN-protected devices (docs/pin-devices.md).
    public var pinRegistrations: [AdminPINRegistration]
    /// Devices the user registered (`/api/devices`).
    public var devices: [Device]
    /// Identities at other providers linked to the account.
    public var federatedIdentities: [LinkedIdentity]
    /// Live sessions: refresh-token families, most recently used first.
    public var sessions: [AdminSession]

    /// A value with every member given.
    public init(
        user: AdminUserSummary, phoneNumber: String?, phoneNumberVerified: Bool?, updatedAt: Int, lastSignInAt: Int?,
        hasPassword: Bool, factors: [MFAEnrollmentStatus], passkeys: [Passkey], pinRegistrations: [AdminPINRegistration],
        devices: [Device], federatedIdentities: [LinkedIdentity], sessions: [AdminSession]
    ) {
        self.user = user
        self.phoneNumber = phoneNumber
        self.phoneNumberVerified = phoneNumberVerified
        self.updatedAt = updatedAt
        self.lastSignInAt = lastSignInAt
        self.hasPassword = hasPassword
        self.factors = factors
        self.passkeys = passkeys
        self.pinRegistrations = pinRegistrations
        self.devices = devices
        self.federatedIdentities = federatedIdentities
        self.sessions = sessions
    }

    enum CodingKeys: String, CodingKey {
        case user, factors, passkeys, devices, sessions
        case phoneNumber = "phone_number"
        case phoneNumberVerified = "phone_number_verified"
        case updatedAt = "updated_at"
        case lastSignInAt = "last_sign_in_at"
        case hasPassword = "has_password"
        case pinRegistrations = "pin_registrations"
        case federatedIdentities = "federated_identities"
    }
}

/// A PIN-protected device of the user (docs/pin-devices.md), as the admin API lists it.
public struct AdminPINRegistration: Codable, Sendable, Equatable {
    /// The identifier.
    public var id: String
    /// The client (app) it belongs to.
    public var clientID: String
    /// The name the device gave itself.
    public var label: String?
    /// When it was created (seconds since 1970).
    public var createdAt: Int
    /// When it was last used (seconds since 1970).
    public var lastUsedAt: Int?
    /// Wrong PINs in a row so far.
    public var failures: Int

    /// A value with every member given.
    public init(id: String, clientID: String, label: String?, createdAt: Int, lastUsedAt: Int?, failures: Int) {
        self.id = id
        self.clientID = clientID
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.failures = failures
    }

    enum CodingKeys: String, CodingKey {
        case id, label, failures
        case clientID = "client_id"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}

/// A live session of the user: one refresh-token family of one client.
public struct AdminSession: Codable, Sendable, Equatable {
    /// Pass to `DELETE /admin/api/users/{id}/sessions/{session_id}` to end it.
    public var id: String
    /// The client (app) it belongs to.
    public var clientID: String
    /// The last sign-in or refresh in it.
    public var lastUsedAt: Int

    /// A value with every member given.
    public init(id: String, clientID: String, lastUsedAt: Int) {
        self.id = id
        self.clientID = clientID
        self.lastUsedAt = lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case clientID = "client_id"
        case lastUsedAt = "last_used_at"
    }
}

/// `POST /admin/api/users/{id}/role`: grant a role, or take it away with `null`.
public struct AdminRoleUpdate: Codable, Sendable, Equatable {
    /// The role, or `nil`.
    public var role: String?

    /// A value with every member given.
    public init(role: String?) { self.role = role }
}

/// What `POST /admin/api/users/{id}/sessions/end`, `/disable` and `/unlock` did.
public struct AdminUserChange: Codable, Sendable, Equatable {
    /// The user.
    public var user: AdminUserSummary
    /// Sessions ended by the change.
    public var sessionsEnded: Int

    /// A value with every member given.
    public init(user: AdminUserSummary, sessionsEnded: Int) {
        self.user = user
        self.sessionsEnded = sessionsEnded
    }

    enum CodingKeys: String, CodingKey {
        case user
        case sessionsEnded = "sessions_ended"
    }
}

/// `POST /admin/api/users` (create) and `POST /admin/api/users/{user_id}` (change the profile
/// fields given; the others stay). Without a password a new user is sent a password-reset code
/// by email to choose one (an invitation).
public struct AdminUserProfile: Codable, Sendable, Equatable {
    /// The login name (required to create).
    public var username: String?
    /// The email address (required to create).
    public var email: String?
    /// Whether the address is confirmed (an operator who checked it may say so).
    public var emailVerified: Bool?
    /// The `name` claim; an empty string removes it.
    public var name: String?
    /// To create only: the first password (else an invitation mail).
    public var password: String?

    /// A profile with the given fields.
    public init(
        username: String? = nil, email: String? = nil, emailVerified: Bool? = nil, name: String? = nil, password: String? = nil
    ) {
        self.username = username
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.password = password
    }

    enum CodingKeys: String, CodingKey {
        case username, email, name, password
        case emailVerified = "email_verified"
    }
}
