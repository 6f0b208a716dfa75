import Foundation

/// `POST /admin/api/bootstrap`: the one-time code `sesame serve` printed while no one held an
/// operator role (docs/admin.md); the signed-in user becomes the first administrator.
public struct AdminBootstrapRequest: Codable, Sendable, Equatable {
    /// The code as printed (`ABCDE-FGHJK-…`; case, spaces and dashes do not matter).
    public var code: String

    /// A request with `code`.
    public init(code: String) { self.code = code }
}

/// The answer to ``AdminBootstrapRequest``: who became what.
public struct AdminBootstrapResult: Codable, Sendable, Equatable {
    /// The new administrator's subject.
    public var userID: String
    /// `admin`.
    public var role: String

    /// A result for `userID`.
    public init(userID: String, role: String) {
        self.userID = userID
        self.role = role
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case role
    }
}
