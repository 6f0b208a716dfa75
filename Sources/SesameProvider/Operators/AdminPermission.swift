import Foundation
import SesameProtocol
import SesameStore

/// What one admin API request needs (issue #47). Each ``AdminRole`` allows a set:
///
/// | permission | admin | helpdesk | auditor |
/// |---|---|---|---|
/// | ``readUsers`` | ✓ | ✓ | ✓ |
/// | ``manageUsers`` (disable, unlock, end sessions, remove a factor, mail) | ✓ | ✓ | |
/// | ``readClients`` (clients, keys, federation providers) | ✓ | | ✓ |
/// | ``manageClients``, ``manageKeys``, ``manageProviders``, ``manageRoles`` | ✓ | | |
/// | ``readAudit`` | ✓ | ✓ | ✓ |
package enum AdminPermission: String, Sendable, CaseIterable {
    case readUsers = "read users"
    case manageUsers = "manage users"
    case readClients = "read clients and keys"
    case manageClients = "manage clients"
    case manageKeys = "manage signing keys"
    case manageProviders = "manage federation providers"
    case manageRoles = "grant roles"
    case readAudit = "read the audit log"
}

extension AdminRole {
    /// Whether the role allows `permission` (the table of ``AdminPermission``).
    package func allows(_ permission: AdminPermission) -> Bool {
        switch self {
        case .admin: true
        case .helpdesk: [.readUsers, .manageUsers, .readAudit].contains(permission)
        case .auditor: [.readUsers, .readClients, .readAudit].contains(permission)
        }
    }

    /// The roles that allow `permission`, for a refusal that says which is missing.
    package static func allowing(_ permission: AdminPermission) -> [AdminRole] {
        allCases.filter { $0.allows(permission) }
    }
}

/// Who makes an admin API request: an operator (a user with a role, signed in with a second
/// factor) and the role they act in. Recorded as `actor` in every audit record of a change.
package struct AdminActor: Sendable, Equatable {
    package var userID: String
    package var role: AdminRole
    /// When the operator signed in (`auth_time`); destructive changes need a recent one.
    package var authTime: Date?

    /// How recent a sign-in a destructive change (deleting a client, rotating a secret or the
    /// signing keys) needs: 5 minutes, as a PIN registration does.
    package static let recentSignIn: TimeInterval = 300

    package init(userID: String, role: AdminRole, authTime: Date? = nil) {
        self.userID = userID
        self.role = role
        self.authTime = authTime
    }

    /// Throws `insufficient_authorization` unless the operator signed in within
    /// ``recentSignIn`` (the server answers it with RFC 9470's `max_age` challenge).
    package func requireRecentSignIn(now: Date) throws(ProviderFailure) {
        guard let authTime, now.timeIntervalSince(authTime) <= Self.recentSignIn else {
            throw ProviderFailure(
                .insufficientAuthorization,
                "This change needs a sign-in in the last \(Int(Self.recentSignIn / 60)) minutes; sign in again (max_age=0) and retry.")
        }
    }

    /// The audit detail of a change the operator made.
    package var auditDetail: [String: String] { ["actor": userID, "role": role.rawValue] }

    /// Throws `admin_role_required` (403) naming the roles that would allow `permission`.
    package func require(_ permission: AdminPermission) throws(ProviderFailure) {
        guard role.allows(permission) else {
            let roles = AdminRole.allowing(permission).map(\.rawValue).joined(separator: " or ")
            throw ProviderFailure(
                .adminRoleRequired,
                "The \(role.rawValue) role may not \(permission.rawValue); this needs the \(roles) role. Ask an administrator.")
        }
    }
}
