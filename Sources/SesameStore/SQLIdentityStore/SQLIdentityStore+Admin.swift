import Foundation
import SQLKit

// Operators' roles, disabled accounts and the user search (issue #47).
extension SQLIdentityStore: AdminStore {
    public func setAdminRole(_ role: AdminRole?, userID: String, grantedBy: String?, at: Date) async throws {
        guard let role else {
            try await database.delete(from: "admin_roles").where("user_id", .equal, userID).run()
            return
        }
        // An operator is a user, or a confidential client acting for itself (automation); their
        // ids never collide (``IdentityStore/upsertClient(_:)``).
        var exists = try await user(id: userID) != nil
        if !exists { exists = try await client(id: userID) != nil }
        guard exists else {
            throw StoreError.notFound(what: "user \(userID)")
        }
        try await database.insert(into: "admin_roles")
            .columns("user_id", "role", "granted_at", "granted_by")
            .values(userID, role.rawValue, StoreValue.time(at), grantedBy)
            .onConflict(with: ["user_id"]) {
                $0.set(excludedValueOf: "role").set(excludedValueOf: "granted_at").set(excludedValueOf: "granted_by")
            }
            .run()
    }

    public func recordHeartbeat(_ process: ServerProcessRecord) async throws {
        try await database.insert(into: "server_processes")
            .columns("id", "host", "pid", "started_at", "last_seen")
            .values(process.id, process.host, process.pid, StoreValue.time(process.startedAt), StoreValue.time(process.lastSeen))
            .onConflict(with: ["id"]) { $0.set(excludedValueOf: "last_seen") }
            .run()
        try await database.delete(from: "server_processes")
            .where("last_seen", .lessThan, StoreValue.time(process.lastSeen.addingTimeInterval(-86_400)))
            .run()
    }

    public func processes(seenSince since: Date) async throws -> [ServerProcessRecord] {
        try await database.select().column("*").from("server_processes")
            .where("last_seen", .greaterThanOrEqual, StoreValue.time(since))
            .orderBy("started_at").orderBy("id")
            .all()
            .map { row in
                ServerProcessRecord(
                    id: try row.string("id"), host: try row.string("host"), pid: try row.decode(column: "pid", as: Int.self),
                    startedAt: try row.date("started_at"), lastSeen: try row.date("last_seen"))
            }
    }

    public func adminRole(userID: String) async throws -> AdminRole? {
        try await database.select().column("role").from("admin_roles").where("user_id", .equal, userID).first()
            .flatMap { AdminRole(rawValue: try $0.string("role")) }
    }

    public func adminRoles() async throws -> [AdminRoleRecord] {
        try await database.select().column("*").from("admin_roles").orderBy("user_id").all().compactMap { row in
            guard let role = AdminRole(rawValue: try row.string("role")) else { return nil }
            return AdminRoleRecord(
                userID: try row.string("user_id"), role: role, grantedAt: try row.date("granted_at"),
                grantedBy: try row.optionalString("granted_by"))
        }.sorted { ($0.role, $0.userID) < ($1.role, $1.userID) }
    }

    @discardableResult
    public func setUserDisabled(id: String, at: Date?) async throws -> Bool {
        guard try await user(id: id) != nil else { return false }
        try await database.update("users").set("disabled_at", to: StoreValue.time(at)).where("id", .equal, id).run()
        return true
    }

    public func userCount() async throws -> Int {
        try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("users").first()?
            .decode(column: "n", as: Int.self) ?? 0
    }

    /// Adds many users at once (an import from another system, the million-user benchmarks):
    /// 500 users and their search terms a statement. Unlike ``createUser(_:)`` it does not check
    /// each user against clients first; a username, email or id that is taken fails the batch
    /// with ``StoreError/conflict(field:)``, and the batches before it stay.
    public func importUsers(_ users: [UserRecord]) async throws {
        for start in stride(from: 0, to: users.count, by: 500) {
            let batch = users[start..<min(start + 500, users.count)].map(Self.normalized)
            var insert = database.insert(into: "users").columns(
                "id", "username", "email", "email_verified", "password_hash", "claims", "created_at", "updated_at")
            var terms = database.insert(into: "user_search_terms").columns("term", "user_id", "field")
            for user in batch {
                insert = insert.values([
                    SQLBind(user.id), SQLBind(user.username), SQLBind(user.email), SQLBind(user.emailVerified),
                    SQLBind(user.passwordHash), SQLBind(try StoreValue.json(user.claims)), SQLBind(StoreValue.time(user.createdAt)),
                    SQLBind(StoreValue.time(user.updatedAt)),
                ])
                for (term, field) in Self.searchTerms(of: user) { terms = terms.values(term, user.id, field) }
            }
            do {
                try await insert.run()
            } catch {
                if let field = StoreDialect.uniqueViolation(in: error, columns: ["username", "email", "id"]) {
                    throw StoreError.conflict(field: field)
                }
                throw error
            }
            try await terms.ignoringConflicts().run()
        }
    }

    public func liveBrowserSessionCount(now: Date) async throws -> Int {
        try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("browser_sessions")
            .where("expires_at", .greaterThan, StoreValue.time(now)).first()?
            .decode(column: "n", as: Int.self) ?? 0
    }

    /// One index range of `user_search_terms` from the cursor on (row values compare the primary
    /// key's order), the users of the matches read by id, a user listed once per page. An empty
    /// prefix pages through the usernames.
    public func searchUsers(_ search: UserSearch) async throws -> UserSearchPage {
        let prefix = String(search.prefix.lowercased().prefix(UserSearch.maximumPrefixLength))
        var query = database.select().column("term").column("user_id").column("field").from("user_search_terms")
        if prefix.isEmpty {
            query = query.where("field", .equal, "username")
        } else {
            query = query.where("term", .greaterThanOrEqual, prefix)
                .where("term", .lessThan, UserSearchTerms.upperBound(of: prefix))
        }
        if let cursor = search.cursor {
            query = query.where(
                SQLBinaryExpression(
                    SQLGroupExpression([SQLColumn("term"), SQLColumn("user_id")]), .greaterThan,
                    SQLGroupExpression([SQLBind(cursor.term), SQLBind(cursor.userID)])))
        }
        // One more than a page, and as many again for users matched twice (username and email).
        let fetched = search.limit * 2 + 1
        let rows = try await query.orderBy("term").orderBy("user_id").limit(fetched).all()
        var order: [String] = []
        var matchedBy: [String: String] = [:]
        var consumed: UserSearchCursor?
        var more = false
        for row in rows {
            let userID = try row.string("user_id")
            let term = try row.string("term")
            guard term.hasPrefix(prefix) else { continue }
            if matchedBy[userID] == nil {
                if order.count == search.limit {
                    more = true
                    break
                }
                order.append(userID)
                matchedBy[userID] = try row.string("field")
            }
            consumed = UserSearchCursor(term: term, userID: userID)
        }
        // Every row fetched was taken (the page filled with users matched twice): there may be more.
        if rows.count == fetched { more = true }
        let next = more ? consumed : nil
        guard !order.isEmpty else { return UserSearchPage(users: [], matchedBy: [:], next: next) }
        let users = try await database.select().column("*").from("users").where("id", .in, order).all()
            .map(Self.userRecord)
        let byID = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return UserSearchPage(users: order.compactMap { byID[$0] }, matchedBy: matchedBy, next: next)
    }
}
