import Foundation
import SQLKit

/// The rows of `user_search_terms` for one user (issue #47): the lowercased username, email,
/// name and subject, each a term a prefix search finds through the primary key.
enum UserSearchTerms {
    /// The longest term kept (a longer name is cut; its prefix still finds the user).
    static let maximumTermLength = 320

    static func terms(id: String, username: String, email: String, name: String?) -> [(term: String, field: String)] {
        var terms: [(String, String)] = [
            (username.lowercased(), "username"), (email.lowercased(), "email"), (id.lowercased(), "sub"),
        ]
        if let name = name?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), !name.isEmpty {
            terms.append((name, "name"))
        }
        return terms.map { (String($0.0.prefix(maximumTermLength)), $0.1) }
    }

    static func insert(_ terms: [(term: String, field: String)], userID: String, into db: any SQLDatabase) async throws {
        guard !terms.isEmpty else { return }
        var insert = db.insert(into: "user_search_terms").columns("term", "user_id", "field")
        for (term, field) in terms { insert = insert.values(term, userID, field) }
        try await insert.ignoringConflicts().run()
    }

    /// Replaces a user's terms (after a change of username, email or name).
    static func replace(_ terms: [(term: String, field: String)], userID: String, in db: any SQLDatabase) async throws {
        try await remove(userID: userID, from: db)
        try await insert(terms, userID: userID, into: db)
    }

    static func remove(userID: String, from db: any SQLDatabase) async throws {
        try await db.delete(from: "user_search_terms").where("user_id", .equal, userID).run()
    }

    /// The exclusive upper bound of the terms that start with `prefix`: byte order, as both
    /// databases compare the column (U+10FFFF sorts after every character a term can hold).
    static func upperBound(of prefix: String) -> String { prefix + "\u{10FFFF}" }
}
