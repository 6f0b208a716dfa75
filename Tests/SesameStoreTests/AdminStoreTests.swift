import Foundation
import SesameProtocol
import StoreTesting
import Testing
@testable import SesameStore

/// The admin API's store (``AdminStore``, issue #47) in each store: operators' roles, disabled
/// users, and the prefix search over usernames, emails, names and subjects, a page at a time
/// with a cursor that neither skips nor repeats a user.
@Suite("Store: admin roles, disabled users, user search")
struct AdminStoreTests {
    @Test("roles are granted, replaced and taken away; a role needs a user; removing the user removes it", arguments: StoreBackend.available)
    func roles(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let alice = StoreSamples.user("alice")
            let bob = StoreSamples.user("bob")
            try await store.createUser(alice)
            try await store.createUser(bob)
            #expect(try await store.adminRole(userID: alice.id) == nil)
            try await store.setAdminRole(.helpdesk, userID: alice.id, grantedBy: "cli", at: now)
            try await store.setAdminRole(.admin, userID: alice.id, grantedBy: "cli", at: now)
            try await store.setAdminRole(.auditor, userID: bob.id, grantedBy: alice.id, at: now)
            #expect(try await store.adminRole(userID: alice.id) == .admin)
            #expect(try await store.adminRoles().map(\.role) == [.admin, .auditor])
            #expect(try await store.adminRoles().last?.grantedBy == alice.id)
            await #expect(throws: StoreError.self) {
                try await store.setAdminRole(.admin, userID: "nobody", grantedBy: nil, at: now)
            }
            try await store.setAdminRole(nil, userID: bob.id, grantedBy: nil, at: now)
            #expect(try await store.adminRole(userID: bob.id) == nil)
            #expect(try await store.removeUser(id: alice.id))
            #expect(try await store.adminRoles().isEmpty)
        }
    }

    @Test("a user is disabled and enabled; the flag survives an update of the profile", arguments: StoreBackend.available)
    func disabled(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            var alice = StoreSamples.user("alice")
            try await store.createUser(alice)
            let at = StoreSamples.now()
            #expect(try await store.setUserDisabled(id: alice.id, at: at))
            #expect(try await store.user(id: alice.id)?.disabledAt == at)
            alice.claims.name = "Alice A."
            try await store.updateUser(alice)
            #expect(try await store.user(id: alice.id)?.isDisabled == true, "an update does not enable")
            #expect(try await store.setUserDisabled(id: alice.id, at: nil))
            #expect(try await store.user(id: alice.id)?.isDisabled == false)
            #expect(try await store.setUserDisabled(id: "nobody", at: at) == false)
            #expect(try await store.userCount() == 1)
        }
    }

    @Test("a prefix finds users by username, email, name or subject, case-insensitive; a changed name is found by the new one", arguments: StoreBackend.available)
    func prefixes(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            var alice = UserRecord(id: "u-alice", username: "alice", email: "a.smith@example.com")
            alice.claims.name = "Zoë Smith"
            let bob = UserRecord(id: "u-bob", username: "bob", email: "bob@example.org")
            try await store.createUser(alice)
            try await store.createUser(bob)
            func found(_ prefix: String) async throws -> [String] {
                try await store.searchUsers(UserSearch(prefix: prefix)).users.map(\.username)
            }
            #expect(try await found("ALI") == ["alice"])
            #expect(try await found("a.sm") == ["alice"])
            #expect(try await found("zoë") == ["alice"], "names are matched lowercased, beyond ASCII")
            #expect(try await found("u-b") == ["bob"])
            #expect(try await found("") == ["alice", "bob"], "an empty prefix lists by username")
            #expect(try await found("x") == [])
            #expect(try await found("%") == [], "no LIKE wildcards")
            #expect(try await found(String(repeating: "a", count: 10_000)) == [])
            let page = try await store.searchUsers(UserSearch(prefix: "a"))
            #expect(page.users.map(\.username) == ["alice"], "matched by username and email, listed once")
            #expect(page.matchedBy["u-alice"] == "email" || page.matchedBy["u-alice"] == "username")
            alice.claims.name = "Ada Lovelace"
            try await store.updateUser(alice)
            #expect(try await found("zo") == [])
            #expect(try await found("ada l") == ["alice"])
            #expect(try await store.removeUser(id: bob.id))
            #expect(try await found("bob") == [])
        }
    }

    @Test("paging through 250 matches with the cursor returns every user exactly once", arguments: StoreBackend.available)
    func paging(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            for index in 0..<250 {
                let name = String(format: "user%03d", index)
                // Every user matches "user" twice: by username and by email.
                try await store.createUser(UserRecord(id: "id-\(index)", username: name, email: "\(name)@example.com"))
            }
            try await store.createUser(UserRecord(id: "id-other", username: "other", email: "other@example.com"))
            var seen: [String] = []
            var cursor: UserSearchCursor?
            var pages = 0
            repeat {
                let page = try await store.searchUsers(UserSearch(prefix: "USER", cursor: cursor, limit: 40))
                #expect(page.users.count <= 40)
                seen += page.users.map(\.username)
                cursor = page.next
                pages += 1
            } while cursor != nil && pages < 50
            #expect(Set(seen).count == 250 && seen.allSatisfy { $0.hasPrefix("user") })
            // A user found by username and by email may come twice, on two pages, never more.
            #expect(seen.count <= 500)
            let all = try await store.searchUsers(UserSearch(prefix: "", limit: 1_000))
            #expect(all.users.count == UserSearch.maximumLimit, "the page size is capped")
        }
    }

    @Test("audit events are counted per interval and reason in one statement; other events and older records are left out", arguments: StoreBackend.available)
    func auditCounts(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let since = Date(timeIntervalSince1970: 1_800_000_000)
            func record(_ event: String, _ offset: TimeInterval, _ reason: String? = nil) -> AuditRecord {
                AuditRecord(id: UUID().uuidString, time: since.addingTimeInterval(offset), event: event, reason: reason, detail: [:])
            }
            try await store.appendAuditRecords([
                record("sign_in.failed", -0.5, "invalid_credentials"),  // before the window
                record("sign_in.failed", 0, "invalid_credentials"), record("sign_in.failed", 299.9, "invalid_credentials"),
                record("sign_in.failed", 300, "account_disabled"), record("sign_in.succeeded", 3599.5),
                record("token.revoked", 10),  // not asked for
            ])
            let counts = try await store.auditEventCounts(
                events: ["sign_in.failed", "sign_in.succeeded"], since: since, bucket: 300)
            let sorted = counts.sorted { ($0.event, $0.bucket, $0.reason ?? "") < ($1.event, $1.bucket, $1.reason ?? "") }
            #expect(
                sorted == [
                    AuditEventCount(event: "sign_in.failed", bucket: 0, reason: "invalid_credentials", count: 2),
                    AuditEventCount(event: "sign_in.failed", bucket: 1, reason: "account_disabled", count: 1),
                    AuditEventCount(event: "sign_in.succeeded", bucket: 11, reason: nil, count: 1),
                ])
            #expect(try await store.auditEventCounts(events: [], since: since, bucket: 300).isEmpty)
        }
    }

    @Test("many users are imported in batches with their search terms; a taken username fails with a conflict", arguments: StoreBackend.available)
    func importUsers(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let users = (0..<1_203).map { index in
                let id = UUID().uuidString.lowercased()
                var claims = StandardClaims(sub: id)
                claims.name = index.isMultiple(of: 2) ? "Grace Hopper \(index)" : nil
                return UserRecord(id: id, username: "Imported\(index)", email: "imported\(index)@Example.com", claims: claims)
            }
            try await store.importUsers(users)
            #expect(try await store.userCount() == 1_203)
            #expect(try await store.user(id: users[1_202].id)?.username == "imported1202", "normalized as createUser does")
            let byName = try await store.searchUsers(UserSearch(prefix: "grace hopper 120", limit: 25))
            #expect(Set(byName.users.map(\.username)) == ["imported120", "imported1200", "imported1202"])
            let byEmail = try await store.searchUsers(UserSearch(prefix: "IMPORTED77@", limit: 25))
            #expect(byEmail.users.map(\.username) == ["imported77"])
            await #expect(throws: StoreError.self) {
                try await store.importUsers([UserRecord(username: "imported5", email: "other@example.com")])
            }
        }
    }
}
