import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing

@testable import SesameServer

/// Issue #28 §5: confirming a code at an address with an account and at one without gets the
/// same answers, attempt by attempt; a password rule that names the account is checked only
/// once the code is right; and a login name names one account.
@Suite("No account enumeration through codes; unambiguous login names")
struct AccountEnumerationTests {
    /// What a confirmation answer tells: status, code, description, attempts left.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var code: Int?
        var text: String?
        var remaining: Int?
        var description: String { "\(status) \(code ?? 0) \(remaining.map(String.init) ?? "-") \(text ?? "")" }

        init(_ response: TestResponse) {
            status = response.status
            let error = response.apiError
            code = error?.errorCode
            text = error?.errorDescription
            remaining = error?.remainingAttempts
        }
    }

    static func confirm(_ api: AccountAPI, _ email: String, code: String = "000000") async throws -> Answer {
        Answer(
            try await api.post(
                "/api/password/reset/confirm", ["email": email, "code": code, "new_password": "a brand new passphrase"]))
    }

    @Test("reset confirmation: an account's address and an unknown one answer alike, before a request, for each wrong code, and once used up", arguments: StoreBackend.available)
    func resetConfirmationAnswersAlike(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let unknown = "nobody.here@example.com"
            #expect(try await Self.confirm(api, Fixtures.email) == (try await Self.confirm(api, unknown)), "no code requested")
            for address in [Fixtures.email, unknown] {
                #expect(try await api.post("/api/password/reset", ["email": address]).status == 202)
            }
            let right = try await api.latestCode(to: Fixtures.email, purpose: "password_reset")
            let wrong = right == "000000" ? "111111" : "000000"
            var seen: [Answer] = []
            for attempt in 1...6 {
                let known = try await Self.confirm(api, Fixtures.email, code: wrong)
                let absent = try await Self.confirm(api, unknown, code: wrong)
                #expect(known == absent, "attempt \(attempt): \(known) vs \(absent)")
                seen.append(known)
            }
            #expect(seen.map(\.remaining) == [4, 3, 2, 1, 0, 0], "\(seen)")
            #expect(seen.last?.text?.contains("No valid code is pending") == true)
            // Nothing was mailed to the unknown address.
            #expect(try await api.messages(to: unknown).isEmpty)
        }
    }

    @Test("a new password equal to the username is refused only after the right code, and the code survives it")
    func usernameRuleAfterTheCode() async throws {
        try await withAccountAPI { api in
            let admin = ServerAdmin(store: api.server.store, hasher: TestServer.hasher, keyRing: api.server.keyRing)
            let username = "harriet-the-spy"
            let email = "harriet@example.com"
            _ = try await admin.addUser(username: username, email: email, password: "an old passphrase")
            let unknown = "stranger@example.com"
            for address in [email, unknown] {
                #expect(try await api.post("/api/password/reset", ["email": address]).status == 202)
            }
            func attempt(_ email: String, _ code: String, _ password: String) async throws -> TestResponse {
                try await api.post("/api/password/reset/confirm", ["email": email, "code": code, "new_password": password])
            }
            // With a wrong code both addresses get the same invalid-code answer: the rule that
            // names the account tells nobody without the code that it exists.
            let knownWrong = Answer(try await attempt(email, "000001", username))
            let unknownWrong = Answer(try await attempt(unknown, "000001", username))
            #expect(knownWrong == unknownWrong)
            #expect(knownWrong.code == APIErrorCode.invalidVerificationCode.rawValue)

            let code = try await api.latestCode(to: email, purpose: "password_reset")
            let weak = try await attempt(email, code, username)
            #expect(weak.apiError?.code == .weakPassword, "\(weak.text)")
            let accepted = try await attempt(email, code, "a passphrase of her own")
            #expect(accepted.status == 200, "the code was not used up by the refused password: \(accepted.text)")
        }
    }

    @Test("a username may not be another account's email, nor an email another's username; a login name finds one account", arguments: StoreBackend.available)
    func loginNamesAreUnambiguous(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let store = server.store
            await #expect(throws: StoreError.conflict(field: "username")) {
                try await store.createUser(StoreSamples.user(Fixtures.email, email: "mallory@example.com"))
            }
            await #expect(throws: StoreError.conflict(field: "email")) {
                try await store.createUser(StoreSamples.user("mallory", email: Fixtures.username))
            }
            let bob = StoreSamples.user("bob", email: "bob@example.com")
            try await store.createUser(bob)
            var renamed = bob
            renamed.email = Fixtures.username
            await #expect(throws: StoreError.conflict(field: "email")) { try await store.updateUser(renamed) }
            #expect(try await store.user(login: Fixtures.username)?.email == Fixtures.email)
            #expect(try await store.user(login: "bob@example.com")?.id == bob.id)
            #expect(try await store.user(email: Fixtures.username) == nil, "a username is not an email")
        }
    }
}
