import Foundation

/// What an operator may do in the admin API and console (issue #47), as Keycloak's realm roles
/// and Auth0's dashboard roles divide it:
/// - ``admin``: everything, clients, keys and providers included;
/// - ``helpdesk``: users and what is theirs (sessions, factors, passkeys, PIN registrations,
///   lockouts, mails), the audit log; no clients, keys or providers;
/// - ``auditor``: reads everything, changes nothing.
public enum AdminRole: String, Sendable, Codable, CaseIterable, Comparable {
    case admin
    case helpdesk
    case auditor

    public static func < (lhs: AdminRole, rhs: AdminRole) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A user's admin role, who granted it and when.
public struct AdminRoleRecord: Sendable, Equatable, Codable {
    public var userID: String
    public var role: AdminRole
    public var grantedAt: Date
    /// The administrator (a user id) or `cli` (the data-directory command) that granted it.
    public var grantedBy: String?

    public init(userID: String, role: AdminRole, grantedAt: Date, grantedBy: String?) {
        self.userID = userID
        self.role = role
        self.grantedAt = grantedAt
        self.grantedBy = grantedBy
    }
}
