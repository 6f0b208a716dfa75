import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Account sign-up")
struct SignUpTests {
    @Test("sign-up sends a code; the account signs in before and after confirming; the code is single use", arguments: StoreBackend.available)
    func signUpConfirmSignIn(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let email = "new.user@example.com"
            let response = try await api.signUp(
                email: "New.User@Example.com", extra: ["name": "New User", "locale": "en-GB"])
            try #require(response.status == 201, "\(response.text)")
            #expect(response.header("Cache-Control") == "no-store")
            let created = try response.json(SignUpResponse.self)
            #expect(created.email == email)
            #expect(created.emailVerified == false)
            let user = try #require(try await api.server.store.user(id: created.sub))
            #expect(user.username == email, "the username defaults to the email")
            #expect(user.claims.name == "New User")
            #expect(user.passwordHash?.hasPrefix("$scrypt$") == true)

            let messages = try await api.messages(to: email, purpose: "email_verification")
            #expect(messages.count == 1)
            #expect(messages.first?.subject == "Confirm your email address")
            let code = try await api.latestCode(to: email, purpose: "email_verification")

            let before = try #require(try await api.signIn(email, AccountAPI.password), "unverified users sign in")
            let profile = try await api.call("GET", "/api/profile", token: before.accessToken)
            #expect(try profile.json(StandardClaims.self).emailVerified == false)

            let confirmed = try await api.post("/api/signup/confirm", ["email": email, "code": code])
            try #require(confirmed.status == 200, "\(confirmed.text)")
            #expect(try confirmed.json(EmailVerificationStatus.self) == EmailVerificationStatus(email: email, emailVerified: true))
            #expect(try await api.server.store.user(id: created.sub)?.emailVerified == true)
            #expect(try await api.signIn(email, AccountAPI.password) != nil)

            let reused = try await api.post("/api/signup/confirm", ["email": email, "code": code])
            #expect(reused.status == 400)
            #expect(reused.apiError?.code == .invalidVerificationCode)
        }
    }

    @Test("a taken email is 409 email_taken with a `taken` detail, whatever its case", arguments: StoreBackend.available)
    func duplicateEmail(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let response = try await api.signUp(email: Fixtures.email.uppercased())
            #expect(response.status == 409)
            #expect(response.apiError?.code == .emailTaken)
            #expect(response.apiError?.error == "invalid_request")
            #expect(response.detailCodes == ["email: taken"])
            #expect(response.apiError?.errorDetails?.first?.message == "This value is already in use.")

            let username = try await api.signUp(email: "other@example.com", extra: ["username": Fixtures.username])
            #expect(username.status == 400)
            #expect(username.detailCodes == ["username: taken"])
            #expect(try await api.messages(to: "other@example.com").isEmpty)
        }
    }

    @Test("short and common passwords are refused with weak_password details", arguments: StoreBackend.available)
    func weakPasswords(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let short = try await api.signUp(email: "s@example.com", password: "short")
            #expect(short.status == 400)
            #expect(short.apiError?.code == .weakPassword)
            #expect(short.detailCodes == ["password: too_short"])
            #expect(short.apiError?.errorDetails?.first?.message == "Use at least 8 characters.")

            let common = try await api.signUp(email: "c@example.com", password: "Password123")
            #expect(common.apiError?.code == .weakPassword)
            #expect(common.detailCodes == ["password: weak_password"])

            let asEmail = try await api.signUp(email: "same@example.com", password: "SAME@example.com")
            #expect(asEmail.detailCodes == ["password: weak_password"])
            #expect(try await api.server.store.user(login: "s@example.com") == nil)
        }
    }

    @Test("missing, malformed and read-only fields are 400 validation_failed naming each field", arguments: StoreBackend.available)
    func fieldValidation(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let missing = try await api.post("/api/signup", ["client_id": Fixtures.nativeApp, "email": " "])
            #expect(missing.status == 400)
            #expect(missing.apiError?.code == .validationFailed)
            #expect(missing.detailCodes == ["email: required", "password: required"])
            #expect(missing.apiError?.errorDetails?.first?.message == "This field is required.")

            let invalid = try await api.signUp(
                email: "not-an-email", password: "tiny",
                extra: ["birthdate": "1990-13-01", "email_verified": true, "username": "has space"])
            #expect(invalid.apiError?.code == .validationFailed)
            #expect(
                invalid.detailCodes == [
                    "birthdate: invalid_format", "email: invalid_format", "email_verified: not_writable",
                    "password: too_short", "username: invalid_format",
                ])

            let wrongType = try await api.post(
                "/api/signup", ["client_id": Fixtures.nativeApp, "email": 5, "password": AccountAPI.password])
            #expect(wrongType.detailCodes == ["email: invalid_format"])

            let unknownClient = try await api.post(
                "/api/signup", ["client_id": "nope", "email": "x@example.com", "password": AccountAPI.password])
            #expect(unknownClient.status == 401)
            #expect(unknownClient.apiError?.code == .unknownClient)
        }
    }

    @Test("wrong media type, malformed JSON, non-objects and oversized bodies are invalid_request", arguments: StoreBackend.available)
    func malformedBodies(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let form = try await api.browser.postForm(
                "/api/signup", ["client_id": Fixtures.nativeApp, "email": "f@example.com", "password": AccountAPI.password])
            #expect(form.status == 400)
            #expect(form.apiError?.code == .invalidRequest)
            #expect(form.apiError?.errorDescription?.contains("application/json") == true)

            let json = ["Content-Type": "application/json"]
            let broken = try await api.browser.request("POST", "/api/signup", body: Data("{\"email\":".utf8), headers: json)
            #expect(broken.status == 400)
            #expect(broken.apiError?.code == .invalidRequest)
            #expect(broken.apiError?.errorID != nil)

            let array = try await api.browser.request("POST", "/api/signup", body: Data("[1,2]".utf8), headers: json)
            #expect(array.apiError?.code == .invalidRequest)

            let huge = String(repeating: "x", count: 20_000)
            let oversized = try await api.signUp(email: "big@example.com", extra: ["name": huge])
            #expect(oversized.status == 413)
            #expect(oversized.apiError?.code == .invalidRequest)
        }
    }

    @Test("the confirmation refuses an unknown address and a wrong code without revealing more", arguments: StoreBackend.available)
    func confirmationFailures(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let unknown = try await api.post("/api/signup/confirm", ["email": "ghost@example.com", "code": "123456"])
            #expect(unknown.status == 400)
            #expect(unknown.apiError?.code == .invalidVerificationCode)
            #expect(unknown.apiError?.remainingAttempts == 0)

            _ = try await api.signUp(email: "wrong@example.com")
            let code = try await api.latestCode(to: "wrong@example.com", purpose: "email_verification")
            let wrong = code == "000000" ? "000001" : "000000"
            let response = try await api.post("/api/signup/confirm", ["email": "wrong@example.com", "code": wrong])
            #expect(response.apiError?.code == .invalidVerificationCode)
            #expect(response.apiError?.remainingAttempts == 4)
        }
    }
}
