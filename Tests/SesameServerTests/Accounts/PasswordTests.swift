import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Password reset and change")
struct PasswordTests {
    @Test("reset: the new password signs in, the old one and the old refresh token stop working", arguments: StoreBackend.available)
    func reset(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let before = try await api.signInAlice()
            let oldRefresh = try #require(before.refreshToken)

            let requested = try await api.post("/api/password/reset", ["email": Fixtures.email])
            #expect(requested.status == 202)
            #expect(requested.text == "{}")
            let message = try #require(try await api.messages(to: Fixtures.email, purpose: "password_reset").last)
            #expect(message.subject == "Reset your password")
            let code = try await api.latestCode(to: Fixtures.email, purpose: "password_reset")

            let weak = try await api.post(
                "/api/password/reset/confirm", ["email": Fixtures.email, "code": code, "new_password": "short"])
            #expect(weak.apiError?.code == .weakPassword)
            #expect(weak.detailCodes == ["new_password: too_short"])

            let newPassword = "a completely new password"
            let confirmed = try await api.post(
                "/api/password/reset/confirm", ["email": Fixtures.email, "code": code, "new_password": newPassword])
            #expect(confirmed.status == 200, "the weak attempt did not use the code up: \(confirmed.text)")
            #expect(confirmed.text == "{}")

            #expect(try await api.signIn(Fixtures.username, Fixtures.password) == nil)
            #expect(try await api.signIn(Fixtures.username, newPassword) != nil)
            let refresh = try await api.browser.refresh(oldRefresh)
            #expect(refresh.status == 400)
            #expect(refresh.apiError?.error == "invalid_grant")
            let profile = try await api.call("GET", "/api/profile", token: before.accessToken)
            #expect(profile.status == 401, "access tokens of the revoked grant stop working")
        }
    }

    @Test("reset for an unknown address is 202 too and sends nothing", arguments: StoreBackend.available)
    func resetUnknownAddress(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let response = try await api.post("/api/password/reset", ["email": "nobody@example.com"])
            #expect(response.status == 202)
            #expect(response.text == "{}")
            #expect(try await api.outbox.messages().isEmpty)

            // A username is not an address: refused as malformed (which says nothing about
            // whether it exists), and nothing is sent.
            let byUsername = try await api.post("/api/password/reset", ["email": Fixtures.username])
            #expect(byUsername.status == 400)
            #expect(byUsername.detailCodes == ["email: invalid_format"])
            #expect(try await api.outbox.messages().isEmpty, "only an email address matches")

            let missing = try await api.post("/api/password/reset", [:])
            #expect(missing.detailCodes == ["email: required"])
        }
    }

    @Test("change: the current password is required; other sessions are signed out, the caller's stays", arguments: StoreBackend.available)
    func change(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let caller = try await api.signInAlice()
            let other = try await api.signInAlice()

            let wrong = try await api.post(
                "/api/password", ["current_password": "not it at all", "new_password": "a fine new password"],
                token: caller.accessToken)
            #expect(wrong.status == 400)
            #expect(wrong.apiError?.code == .invalidCredentials)

            let weak = try await api.post(
                "/api/password", ["current_password": Fixtures.password, "new_password": Fixtures.email],
                token: caller.accessToken)
            #expect(weak.apiError?.code == .weakPassword)
            #expect(weak.detailCodes == ["new_password: weak_password"])

            let missing = try await api.post("/api/password", ["new_password": "x"], token: caller.accessToken)
            #expect(missing.detailCodes == ["current_password: required"])

            let changed = try await api.post(
                "/api/password", ["current_password": Fixtures.password, "new_password": "a fine new password"],
                token: caller.accessToken)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try await api.signIn(Fixtures.username, Fixtures.password) == nil)
            #expect(try await api.signIn(Fixtures.username, "a fine new password") != nil)

            #expect(try await api.browser.refresh(try #require(caller.refreshToken)).status == 200)
            #expect(try await api.browser.refresh(try #require(other.refreshToken)).status == 400)

            let anonymous = try await api.post(
                "/api/password", ["current_password": "a", "new_password": "b"])
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        }
    }
}
