import Foundation

/// A search of the users by the prefix of their username, email, name or subject (`sub`),
/// case-insensitive, a page at a time (issue #47). Each match is found through one index range
/// (`user_search_terms`), so a page costs the same among a million users as among ten.
public struct UserSearch: Sendable, Equatable {
    /// The prefix; empty lists every user by username.
    public var prefix: String
    /// Where the previous page ended (``UserSearchPage/next``); `nil` for the first page.
    public var cursor: UserSearchCursor?
    /// At most this many users (1...``maximumLimit``).
    public var limit: Int

    /// The largest page.
    public static let maximumLimit = 100
    /// The longest prefix searched (longer ones cannot match a stored term).
    public static let maximumPrefixLength = 320

    public init(prefix: String, cursor: UserSearchCursor? = nil, limit: Int = 25) {
        self.prefix = prefix
        self.cursor = cursor
        self.limit = min(max(limit, 1), Self.maximumLimit)
    }
}

/// The position after the last match of a page: the matched term and its user.
public struct UserSearchCursor: Sendable, Equatable, Codable {
    public var term: String
    public var userID: String

    public init(term: String, userID: String) {
        self.term = term
        self.userID = userID
    }
}

/// One page of a ``UserSearch``.
public struct UserSearchPage: Sendable, Equatable {
    /// The users that matched, in term order; a user whose username and email both match is
    /// listed once on a page.
    public var users: [UserRecord]
    /// Which field each user matched by (`username`, `email`, `name`, `sub`), by user id.
    public var matchedBy: [String: String]
    /// Where the next page starts; `nil` when this is the last one.
    public var next: UserSearchCursor?

    public init(users: [UserRecord], matchedBy: [String: String], next: UserSearchCursor?) {
        self.users = users
        self.matchedBy = matchedBy
        self.next = next
    }
}
