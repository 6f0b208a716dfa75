import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Email change")
struct EmailChangeTests {
    @Test("the code goes to the new address; confirming switches and verifies it; the old address no longer signs in", arguments: StoreBackend.available)
    func change(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let tokens = try await api.signInAlice()
            let newEmail = "alice.new@example.org"
            let requested = try await api.post("/api/email", ["new_email": newEmail], token: tokens.accessToken)
            #expect(requested.status == 202, "\(requested.text)")
            #expect(try await api.messages(to: Fixtures.email).isEmpty, "nothing goes to the old address")
            let message = try #require(try await api.messages(to: newEmail, purpose: "email_change").last)
            #expect(message.subject == "Confirm your new email address")
            let code = try await api.latestCode(to: newEmail, purpose: "email_change")

            let confirmed = try await api.post("/api/email/confirm", ["code": code], token: tokens.accessToken)
            #expect(confirmed.status == 200, "\(confirmed.text)")
            #expect(try confirmed.json(EmailVerificationStatus.self) == EmailVerificationStatus(email: newEmail, emailVerified: true))

            let profile = try await api.call("GET", "/api/profile", token: tokens.accessToken).json(StandardClaims.self)
            #expect(profile.email == newEmail)
            #expect(profile.emailVerified == true)
            #expect(try await api.signIn(Fixtures.email, Fixtures.password) == nil)
            #expect(try await api.signIn(newEmail, Fixtures.password) != nil)
            #expect(try await api.signIn(Fixtures.username, Fixtures.password) != nil)
        }
    }

    @Test("a username that was the old address follows the change", arguments: StoreBackend.available)
    func usernameFollows(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            _ = try await api.signUp(email: "first@example.com")
            let tokens = try #require(try await api.signIn("first@example.com", AccountAPI.password))
            _ = try await api.post("/api/email", ["new_email": "second@example.com"], token: tokens.accessToken)
            let code = try await api.latestCode(to: "second@example.com", purpose: "email_change")
            let confirmed = try await api.post("/api/email/confirm", ["code": code], token: tokens.accessToken)
            #expect(confirmed.status == 200)
            #expect(try await api.signIn("first@example.com", AccountAPI.password) == nil)
            #expect(try await api.server.store.user(login: "second@example.com")?.username == "second@example.com")
        }
    }

    @Test("a taken address is 409; malformed or missing ones are 400; no token is 401", arguments: StoreBackend.available)
    func refusals(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            _ = try await api.signUp(email: "taken@example.com")
            let tokens = try await api.signInAlice()
            let taken = try await api.post("/api/email", ["new_email": "TAKEN@example.com"], token: tokens.accessToken)
            #expect(taken.status == 409)
            #expect(taken.apiError?.code == .emailTaken)
            #expect(taken.detailCodes == ["new_email: taken"])

            let malformed = try await api.post("/api/email", ["new_email": "nope"], token: tokens.accessToken)
            #expect(malformed.detailCodes == ["new_email: invalid_format"])
            let missing = try await api.post("/api/email", [:], token: tokens.accessToken)
            #expect(missing.detailCodes == ["new_email: required"])
            #expect(try await api.post("/api/email", ["new_email": "x@example.com"]).status == 401)
            #expect(try await api.post("/api/email/confirm", ["code": "123456"]).status == 401)

            let noCode = try await api.post("/api/email/confirm", ["code": "123456"], token: tokens.accessToken)
            #expect(noCode.apiError?.code == .invalidVerificationCode)
        }
    }

    @Test("if another account takes the address before the confirmation, the switch is refused", arguments: StoreBackend.available)
    func takenMeanwhile(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let tokens = try await api.signInAlice()
            _ = try await api.post("/api/email", ["new_email": "race@example.com"], token: tokens.accessToken)
            let code = try await api.latestCode(to: "race@example.com", purpose: "email_change")
            _ = try await api.signUp(email: "race@example.com")
            let confirmed = try await api.post("/api/email/confirm", ["code": code], token: tokens.accessToken)
            #expect(confirmed.status == 409)
            #expect(try await api.server.store.user(login: Fixtures.username)?.email == Fixtures.email)
        }
    }
}
