import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// Account mail cannot be used to flood a mailbox or the server's mail reputation
/// (``MailQuota``): a recipient gets at most 3 codes of a kind per 15 minutes, whatever is
/// asked, and one client address may ask at most 40 times; the answers do not depend on
/// whether the address has an account.
@Suite("Account mail flood limits")
struct MailFloodTests {
    @Test("20 password-reset requests for one address send 3 mails; the answer never changes; later the quota refills")
    func perRecipient() async throws {
        try await withAccountAPI { api in
            for _ in 1...20 {
                let response = try await api.post("/api/password/reset", ["email": Fixtures.email])
                #expect(response.status == 202)
                #expect(response.text == "{}")
            }
            #expect(try await api.messages(to: Fixtures.email, purpose: "password_reset").count == 3)
            // The code that was sent last still works: the refused sends did not replace it.
            let code = try await api.latestCode(to: Fixtures.email, purpose: "password_reset")
            let confirmed = try await api.post(
                "/api/password/reset/confirm", ["email": Fixtures.email, "code": code, "new_password": "a new long password"])
            #expect(confirmed.status == 200, "\(confirmed.text)")

            api.server.clock.advance(by: 15 * 60)
            #expect(try await api.post("/api/password/reset", ["email": Fixtures.email]).status == 202)
            #expect(try await api.messages(to: Fixtures.email, purpose: "password_reset").count == 4)
        }
    }

    @Test("one client address: 40 mail-sending requests, then 429 with Retry-After, for known and unknown addresses alike")
    func perSource() async throws {
        try await withAccountAPI { api in
            api.server.clock.freeze()
            for index in 0..<40 {
                let email = index % 2 == 0 ? "nobody\(index)@example.com" : Fixtures.email
                #expect(try await api.post("/api/password/reset", ["email": email]).status == 202)
            }
            for email in ["nobody-else@example.com", Fixtures.email] {
                let refused = try await api.post("/api/password/reset", ["email": email])
                #expect(refused.status == 429)
                #expect(refused.header("Retry-After") == "900")
                #expect(refused.apiError?.code == .rateLimited)
            }
            // Sign-up counts against the same quota.
            let signUp = try await api.post(
                "/api/signup", ["client_id": Fixtures.nativeApp, "email": "new@example.com", "password": "a long enough password"])
            #expect(signUp.status == 429)
            #expect(try await api.server.store.user(login: "new@example.com") == nil)
        }
    }

    @Test("a malformed address is refused (it says nothing about accounts) and sends nothing")
    func malformedAddress() async throws {
        try await withAccountAPI { api in
            let response = try await api.post("/api/password/reset", ["email": "not-an-address"])
            #expect(response.status == 400)
            #expect(response.apiError?.code == .validationFailed)
        }
    }

    @Test("the quota's memory is bounded under a flood of distinct recipients (without a store)")
    func bounded() async throws {
        var policy = MailQuota.Policy()
        policy.maximumEntries = 1_000
        let quota = MailQuota(policy: policy)
        for index in 0..<10_000 { _ = try await quota.admitMessage(to: "r\(index)@example.com", purpose: "password_reset") }
        #expect(quota.trackedKeyCount <= 1_000)
    }
}
