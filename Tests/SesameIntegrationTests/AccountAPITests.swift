import Foundation
import Sesame
import SesameProtocol
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Account self-service (docs/first-party-and-accounts.md) through the SDK against the real server in process:
/// sign-up and email verification, password reset and change, email change, profile, devices,
/// MFA enrolment list and account deletion. Codes are read from the server's outbox.
@Suite("Account API through the SDK against the server")
struct AccountAPITests {
    @Test("sign up, confirm, then sign in")
    func signUpConfirmThenSignIn() async throws {
        try await withServer { server in
            let client = server.sdk()
            let email = "lin@example.com"
            let password = "a long passphrase 4 lin"
            let created = try await client.account.signUp(
                email: email, password: password, username: "lin", profile: ProfileUpdate(name: "Lin Example"))
            #expect(created.email == email)
            #expect(!created.emailVerified)
            #expect(!created.sub.isEmpty)

            let code = try await server.latestCode(to: email, purpose: "email_verification")
            let wrong = await #expect(throws: SesameError.self) {
                _ = try await client.account.confirmEmail(email: email, code: code == "000000" ? "111111" : "000000")
            }
            #expect(wrong?.apiErrorCode == .invalidVerificationCode)
            let status = try await client.account.confirmEmail(email: email, code: code)
            #expect(status.emailVerified)

            let account = try await passwordLogin(
                client, .init(username: "lin", email: email, password: password, sub: created.sub))
            #expect(account.subject == created.sub)
            let profile = try await client.account.profile()
            #expect(profile.name == "Lin Example")
            #expect(profile.email == email)
            #expect(profile.emailVerified == true)

            // The same address again: taken.
            let taken = await #expect(throws: SesameError.self) {
                _ = try await client.account.signUp(email: email, password: "another long passphrase")
            }
            #expect(taken?.apiErrorCode == .emailTaken)
        }
    }

    @Test("sign up validation names the fields")

    func signUpValidationNamesTheFields() async throws {
        try await withServer { server in
            let client = server.sdk()
            let error = await #expect(throws: SesameError.self) {
                _ = try await client.account.signUp(email: "not-an-email", password: "a long passphrase 4 x")
            }
            guard case .requestFailed(_, 400)? = error?.reason else {
                Issue.record("expected a 400 request error, got \(String(describing: error))")
                return
            }
            #expect(error?.fieldErrors.contains { $0.field == "email" && $0.code == FieldErrorCode.invalidFormat } == true)
        }
    }

    @Test("password reset then sign in with the new password")

    func passwordResetThenSignInWithTheNewPassword() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            try await client.account.requestPasswordReset(email: user.email)
            // No account enumeration: an unknown address gets the same (successful) answer.
            try await client.account.requestPasswordReset(email: "nobody@example.com")
            #expect(try await server.messageCount(to: "nobody@example.com") == 0)

            let newPassword = "a brand new passphrase 42"
            try await client.account.resetPassword(
                email: user.email, code: try await server.latestCode(to: user.email, purpose: "password_reset"),
                newPassword: newPassword)
            let old = await #expect(throws: SesameError.self) {
                _ = try await client.login(username: user.username, password: user.password)
            }
            #expect(old?.apiErrorCode == .invalidCredentials)
            var renamed = user
            renamed.password = newPassword
            _ = try await passwordLogin(client, renamed)
        }
    }

    @Test("change password needs the current one")

    func changePasswordNeedsTheCurrentOne() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            let newPassword = "another fine passphrase 7"
            let refused = await #expect(throws: SesameError.self) {
                try await client.account.changePassword(current: "not-the-password", new: newPassword)
            }
            #expect(refused?.apiError != nil)
            try await client.account.changePassword(current: user.password, new: newPassword)
            var changed = user
            changed.password = newPassword
            _ = try await passwordLogin(server.sdk(), changed)
        }
    }

    @Test("change email is verified at the new address")

    func changeEmailIsVerifiedAtTheNewAddress() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            let newEmail = "grace.hopper@example.com"
            try await client.account.changeEmail(to: newEmail)
            #expect(try await client.account.profile().email == user.email, "unchanged until confirmed")
            let status = try await client.account.confirmEmailChange(
                code: try await server.latestCode(to: newEmail, purpose: "email_change"))
            #expect(status.email == newEmail)
            #expect(status.emailVerified)
            let profile = try await client.account.profile()
            #expect(profile.email == newEmail)
            #expect(profile.emailVerified == true)
        }
    }

    @Test("profile: read and update")

    func profileReadAndUpdate() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            #expect(try await client.account.profile().sub == user.sub)

            let updated = try await client.account.updateProfile(
                ProfileUpdate(name: "Grace Hopper", givenName: "Grace", zoneinfo: "America/New_York", locale: "en-US"))
            #expect(updated.name == "Grace Hopper")
            #expect(updated.givenName == "Grace")
            #expect(updated.locale == "en-US")
            #expect(updated.zoneinfo == "America/New_York")
            #expect(try await client.account.profile() == updated)
            #expect(try await client.userInfo().name == "Grace Hopper")

            let invalid = await #expect(throws: SesameError.self) {
                _ = try await client.account.updateProfile(ProfileUpdate(birthdate: "31.12.1906"))
            }
            #expect(invalid?.apiErrorCode == .validationFailed)
            #expect(invalid?.fieldErrors.contains { $0.field == "birthdate" && $0.code == FieldErrorCode.invalidFormat } == true)
        }
    }

    @Test("profile fields that are not writable are named")

    func profileFieldsThatAreNotWritableAreNamed() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            // ProfileUpdate has no member for email; send what another client might.
            var request = URLRequest(url: server.issuer.appendingPathComponent("api/profile"))
            request.httpMethod = "PATCH"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"name":"G","email":"mallory@example.com","email_verified":true}"#.utf8)
            let (data, response) = try await client.data(for: request)
            #expect(response.statusCode == 400)
            let apiError = try JSONDecoder().decode(APIError.self, from: data)
            #expect(apiError.code == .validationFailed)
            let fields = Set((apiError.errorDetails ?? []).filter { $0.code == FieldErrorCode.notWritable }.map(\.field))
            #expect(fields == ["email", "email_verified"])
            #expect(try await client.account.profile().email == user.email)
        }
    }

    @Test("devices: register, list, remove")

    func devicesRegisterListRemove() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            #expect(try await client.account.devices().isEmpty)
            let watch = try await client.account.registerDevice(id: "watch-1", name: "Grace's watch", type: "watch")
            #expect(watch.deviceID == "watch-1")
            #expect(watch.type == "watch")
            _ = try await client.account.registerDevice(id: "phone/2", name: "Phone")
            #expect(Set(try await client.account.devices().map(\.deviceID)) == ["watch-1", "phone/2"])
            try await client.account.removeDevice(id: "phone/2")
            #expect(try await client.account.devices().map(\.deviceID) == ["watch-1"])
            let missing = await #expect(throws: SesameError.self) {
                try await client.account.removeDevice(id: "phone/2")
            }
            #expect(missing?.apiErrorCode == .deviceNotFound)
            guard case .requestFailed(_, 404)? = missing?.reason else {
                Issue.record("expected a 404 request error, got \(String(describing: missing))")
                return
            }
        }
    }

    @Test("MFA methods list and disable")

    func mfaMethodsListAndDisable() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            #expect(try await client.mfa.methods().isEmpty)
            try await client.mfa.enableEmail()
            let methods = try await client.mfa.methods()
            #expect(methods.map(\.method) == [.email])
            #expect(methods.first?.confirmed == true)
            try await client.mfa.disable(.email)
            #expect(try await client.mfa.methods().isEmpty)
            let again = await #expect(throws: SesameError.self) { try await client.mfa.disable(.email) }
            guard case .requestFailed(_, 404)? = again?.reason else {
                Issue.record("expected 404 for a method that is not enrolled, got \(String(describing: again))")
                return
            }
            // Signing in needs no second factor any more.
            _ = try await client.logout(revoke: false)
            _ = try await passwordLogin(client, user)
        }
    }

    @Test("email MFA needs a verified address")

    func emailMFANeedsAVerifiedAddress() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace", emailVerified: false)
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            let error = await #expect(throws: SesameError.self) { try await client.mfa.enableEmail() }
            #expect(error?.apiErrorCode == .emailNotVerified)
        }
    }

    @Test("delete account removes it everywhere")

    func deleteAccountRemovesItEverywhere() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            let account = try await passwordLogin(client, user)
            let events = client.events()
            let refused = await #expect(throws: SesameError.self) {
                try await client.account.delete(password: "not-the-password")
            }
            #expect(refused != nil)
            #expect(await client.currentAccount() == account, "a refused deletion keeps the session")

            try await client.account.delete(password: user.password)
            #expect(await client.accounts().isEmpty)
            var iterator = events.makeAsyncIterator()
            guard case .signedOut(let gone, _) = await iterator.next() else {
                Issue.record("expected signedOut")
                return
            }
            #expect(gone.id == account.id)
            let error = await #expect(throws: SesameError.self) {
                _ = try await client.login(username: user.username, password: user.password)
            }
            #expect(error?.apiErrorCode == .invalidCredentials)
        }
    }
}
