import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Account deletion")
struct AccountDeletionTests {
    @Test("the password confirms; afterwards tokens are invalid, sign-in fails and the user's data is gone", arguments: StoreBackend.available)
    func delete(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let tokens = try await api.signInAlice()
            let user = try #require(try await api.server.store.user(login: Fixtures.username))
            _ = try await api.post("/api/devices", ["device_id": "d1", "name": "Phone"], token: tokens.accessToken)
            _ = try await api.post("/api/password/reset", ["email": Fixtures.email])
            let mfa = try await api.post("/api/mfa/email", [:], token: tokens.accessToken)
            let store = try #require(api.server.store as? SQLIdentityStore)
            let enrolledMFA = try await store.mfaEnrollments(userID: user.id)

            let wrong = try await api.call("DELETE", "/api/account", ["password": "not the password"], token: tokens.accessToken)
            #expect(wrong.status == 400)
            #expect(wrong.apiError?.code == .invalidCredentials)
            let missing = try await api.call("DELETE", "/api/account", [:], token: tokens.accessToken)
            #expect(missing.detailCodes == ["password: required"])

            let deleted = try await api.call("DELETE", "/api/account", ["password": Fixtures.password], token: tokens.accessToken)
            #expect(deleted.status == 204, "\(deleted.text)")

            let profile = try await api.call("GET", "/api/profile", token: tokens.accessToken)
            #expect(profile.status == 401)
            #expect(try await api.browser.refresh(try #require(tokens.refreshToken)).status == 400)
            #expect(try await api.signIn(Fixtures.username, Fixtures.password) == nil)
            #expect(try await api.server.store.user(id: user.id) == nil)
            #expect(try await store.devices(userID: user.id).isEmpty)
            #expect(try await store.verificationCode(userID: user.id, purpose: "password_reset") == nil)
            #expect(try await store.mfaEnrollments(userID: user.id).isEmpty)
            #expect(mfa.status < 300, "\(mfa.text)")
            #expect(!enrolledMFA.isEmpty, "the MFA enrolment existed before")
            #expect(try await api.messages(to: Fixtures.email, purpose: "password_reset").count == 1, "outbox entries stay")
        }
    }

    @Test("deletion needs a bearer token", arguments: StoreBackend.available)
    func unauthenticated(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let response = try await api.call("DELETE", "/api/account", ["password": Fixtures.password])
            #expect(response.status == 401)
            #expect(try await api.server.store.user(login: Fixtures.username) != nil)
        }
    }
}
