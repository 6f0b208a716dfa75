import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Account API localization")
struct AccountLocalizationTests {
    @Test("messages follow the account's locale claim, then Accept-Language")
    func messages() async throws {
        try await withAccountAPI { api in
            let response = try await api.signUp(email: "anna@example.de", extra: ["locale": "de-AT"])
            #expect(response.status == 201, "\(response.text)")
            let message = try #require(try await api.messages(to: "anna@example.de").first)
            #expect(message.subject == StringTables.all["de"]!["message.email_verification.subject"])
            let code = try await api.latestCode(to: "anna@example.de", purpose: "email_verification")
            let template = try #require(StringTables.all["de"]!["message.email_verification.body"])
            #expect(message.body == template.replacingOccurrences(of: "{code}", with: code))

            let reset = try await api.call(
                "POST", "/api/password/reset", ["email": Fixtures.email], headers: ["Accept-Language": "nb-NO, en;q=0.5"])
            #expect(reset.status == 202)
            let resetMessage = try #require(try await api.messages(to: Fixtures.email, purpose: "password_reset").first)
            #expect(resetMessage.subject == StringTables.all["nb"]!["message.password_reset.subject"])
        }
    }

    @Test("error_details and error_user_msg are in the caller's language")
    func fieldErrors() async throws {
        try await withAccountAPI { api in
            let response = try await api.call(
                "POST", "/api/signup", ["client_id": Fixtures.nativeApp, "email": "x@example.com", "password": "kurz"],
                headers: ["Accept-Language": "de"])
            #expect(response.apiError?.code == .weakPassword)
            let expected = StringTables.all["de"]!["field.too_short"]?.replacingOccurrences(of: "{min}", with: "8")
            #expect(response.apiError?.errorDetails?.first?.message == expected)
            #expect(response.apiError?.errorUserMessage == StringTables.all["de"]![APIErrorCode.weakPassword.messageKey])
        }
    }
}
