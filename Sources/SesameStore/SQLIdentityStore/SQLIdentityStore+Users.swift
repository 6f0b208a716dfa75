import Foundation
import SQLKit
import SesameProtocol

// End users. Usernames and emails are unique and compared case-insensitively: they are stored
// lowercased and looked up lowercased.
extension SQLIdentityStore {
    public func createUser(_ user: UserRecord) async throws {
        let user = Self.normalized(user)
        try await checkUnique(user, excludingID: nil)
        // A user's id is the `sub` of their tokens; a client's tokens carry the client id there.
        if try await client(id: user.id) != nil { throw StoreError.conflict(field: "id") }
        do {
            try await database.insert(into: "users")
                .columns(
                    "id", "username", "email", "email_verified", "password_hash", "claims",
                    "created_at", "updated_at"
                )
                .values(
                    user.id, user.username, user.email, user.emailVerified, user.passwordHash,
                    try StoreValue.json(user.claims), StoreValue.time(user.createdAt),
                    StoreValue.time(user.updatedAt)
                )
                .run()
            try await UserSearchTerms.insert(Self.searchTerms(of: user), userID: user.id, into: database)
        } catch {
            // A concurrent insert won the race after our check.
            if let field = StoreDialect.uniqueViolation(in: error, columns: ["username", "email", "id"]) {
                throw StoreError.conflict(field: field)
            }
            throw error
        }
    }

    public func updateUser(_ user: UserRecord) async throws {
        let user = Self.normalized(user)
        guard try await self.user(id: user.id) != nil else {
            throw StoreError.notFound(what: "user \(user.id)")
        }
        try await checkUnique(user, excludingID: user.id)
        do {
            try await database.update("users")
                .set("username", to: user.username)
                .set("email", to: user.email)
                .set("email_verified", to: user.emailVerified)
                .set("password_hash", to: user.passwordHash)
                .set("claims", to: try StoreValue.json(user.claims))
                .set("updated_at", to: StoreValue.time(user.updatedAt))
                .where("id", .equal, user.id)
                .run()
            try await UserSearchTerms.replace(Self.searchTerms(of: user), userID: user.id, in: database)
        } catch {
            if let field = StoreDialect.uniqueViolation(in: error, columns: ["username", "email"]) {
                throw StoreError.conflict(field: field)
            }
            throw error
        }
    }

    public func replacePasswordHash(userID: String, _ old: String, with new: String) async throws {
        try await database.update("users")
            .set("password_hash", to: new)
            .where("id", .equal, userID)
            .where("password_hash", .equal, old)
            .run()
    }

    public func user(id: String) async throws -> UserRecord? {
        try await selectAll(from: "users", where: "id", equals: id).first().map(Self.userRecord)
    }

    public func user(login: String) async throws -> UserRecord? {
        let login = login.lowercased()
        let rows = try await database.select().column("*").from("users")
            .where("username", .equal, login)
            .orWhere("email", .equal, login)
            .limit(2)
            .all()
            .map(Self.userRecord)
        // Two rows only from a database written before usernames and emails were kept apart, or
        // a race of two inserts: the username wins, always the same one.
        return rows.first { $0.username == login } ?? rows.first
    }

    public func user(email: String) async throws -> UserRecord? {
        try await database.select().column("*").from("users")
            .where("email", .equal, email.lowercased())
            .first()
            .map(Self.userRecord)
    }

    public func users() async throws -> [UserRecord] {
        try await database.select().column("*").from("users")
            .orderBy("username")
            .all()
            .map(Self.userRecord)
    }

    /// Removes the user with their browser sessions, codes and refresh tokens (whose families
    /// are recorded as revoked, so access tokens issued from them stop being active).
    @discardableResult
    public func removeUser(id: String) async throws -> Bool {
        guard try await user(id: id) != nil else { return false }
        try await revokeFamilies(matching: "user_id", id, now: Date())
        try await deleteFamilies(matching: "user_id", id)
        try await database.delete(from: "authorization_codes").where("user_id", .equal, id).run()
        try await database.delete(from: "browser_sessions").where("user_id", .equal, id).run()
        try await database.delete(from: "device_sessions").where("user_id", .equal, id).run()
        try await database.delete(from: "device_authorizations").where("user_id", .equal, id).run()
        try await database.delete(from: "federated_identities").where("user_id", .equal, id).run()
        try await removePasskeys(userID: id)
        try await database.delete(from: "admin_roles").where("user_id", .equal, id).run()
        try await UserSearchTerms.remove(userID: id, from: database)
        try await database.delete(from: "users").where("id", .equal, id).run()
        return true
    }

    /// Usernames and emails are unique, and each is also kept apart from the other column: a
    /// username that is another user's email (or the reverse) would make a login name match two
    /// accounts.
    private func checkUnique(_ user: UserRecord, excludingID: String?) async throws {
        let rows = try await database.select().column("id").column("username").column("email")
            .from("users")
            .where("username", .equal, user.username)
            .orWhere("email", .equal, user.email)
            .orWhere("id", .equal, user.id)
            .orWhere("email", .equal, user.username)
            .orWhere("username", .equal, user.email)
            .all()
        for row in rows {
            let id = try row.string("id")
            if id == excludingID { continue }
            if id == user.id { throw StoreError.conflict(field: "id") }
            let (username, email) = (try row.string("username"), try row.string("email"))
            if username == user.username || email == user.username { throw StoreError.conflict(field: "username") }
            if email == user.email || username == user.email { throw StoreError.conflict(field: "email") }
        }
    }

    static func normalized(_ user: UserRecord) -> UserRecord {
        var user = user
        user.username = user.username.lowercased()
        user.email = user.email.lowercased()
        // The claims mirror the record's own fields (OIDC Core §5.1 `sub`, `email`, ...).
        user.claims.sub = user.id
        user.claims.email = user.email
        user.claims.emailVerified = user.emailVerified
        return user
    }

    static func searchTerms(of user: UserRecord) -> [(term: String, field: String)] {
        UserSearchTerms.terms(id: user.id, username: user.username, email: user.email, name: user.claims.name)
    }

    static func userRecord(_ row: any SQLRow) throws -> UserRecord {
        var record = UserRecord(
            id: try row.string("id"),
            username: try row.string("username"),
            email: try row.string("email"),
            emailVerified: try row.decode(column: "email_verified", as: Bool.self),
            passwordHash: try row.optionalString("password_hash"),
            claims: nil,
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"),
            disabledAt: try row.optionalDate("disabled_at"))
        // The stored claims are authoritative; the init only fills the mirrored fields.
        record.claims = try row.json("claims", as: StandardClaims.self)
        return record
    }
}
