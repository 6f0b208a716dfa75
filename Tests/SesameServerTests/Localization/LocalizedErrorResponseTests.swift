import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// `error_user_msg` over real HTTP (docs/errors.md): a failing `/token` request answers in the
/// locale of `Accept-Language`, and `error_message_key` stays the stable key.
@Suite("Localized error_user_msg over HTTP", .sharedTestServer)
struct LocalizedErrorResponseTests {
    /// `POST /token` with an unknown authorization code: 400 `invalid_grant`.
    static func failedTokenRequest(acceptLanguage: String?) async throws -> APIError {
        let server = try SharedTestServer.server()
        let response = try await server.client().postForm(
            "/token",
            [
                "grant_type": "authorization_code", "code": SecureRandom.token(),
                "redirect_uri": Fixtures.nativeRedirect, "client_id": Fixtures.nativeApp,
                "code_verifier": PKCE().verifier,
            ],
            headers: acceptLanguage.map { ["Accept-Language": $0] } ?? [:])
        #expect(response.status == 400)
        let error = try response.json(APIError.self)
        #expect(error.error == "invalid_grant")
        #expect(error.code == .invalidGrant)
        #expect(error.errorMessageKey == "error.invalid_grant")
        return error
    }

    static func expected(_ table: String, _ code: APIErrorCode = .invalidGrant) throws -> String {
        try #require(StringTables.all[table]?[code.messageKey])
    }

    @Test("every locale gets its own error_user_msg", arguments: SpecLocales.tags)
    func everyLocale(tag: String) async throws {
        let error = try await Self.failedTokenRequest(acceptLanguage: tag)
        #expect(error.errorUserMessage == (try Self.expected(tag)))
        if tag != "en" {
            #expect(error.errorUserMessage != (try Self.expected("en")), "\(tag) answered in English")
        }
    }

    @Test("regional tags resolve to their table", arguments: SpecLocales.aliases)
    func aliases(alias: (tag: String, table: String)) async throws {
        let error = try await Self.failedTokenRequest(acceptLanguage: alias.tag)
        #expect(error.errorUserMessage == (try Self.expected(alias.table)))
    }

    @Test("unknown or missing locales fall back to English")
    func fallback() async throws {
        let english = try Self.expected("en")
        #expect(try await Self.failedTokenRequest(acceptLanguage: "tlh, xx-YY;q=0.8").errorUserMessage == english)
        #expect(try await Self.failedTokenRequest(acceptLanguage: "*").errorUserMessage == english)
        #expect(try await Self.failedTokenRequest(acceptLanguage: nil).errorUserMessage == english)
    }

    @Test("Accept-Language q-values pick the best supported locale")
    func qualityValues() async throws {
        let error = try await Self.failedTokenRequest(acceptLanguage: "xx, fr;q=0.5, ja;q=0.9, de;q=0")
        #expect(error.errorUserMessage == (try Self.expected("ja")))
    }

    @Test("the error page of /authorize is localized, right-to-left for Arabic")
    func errorPage() async throws {
        let server = try SharedTestServer.server()
        let page = try await server.client().get(
            "/authorize", query: ["client_id": "nobody", "ui_locales": "ar"], headers: ["Accept-Language": "de"])
        #expect(page.status == 400 || page.status == 401)
        #expect(page.text.contains(#"<html lang="ar" dir="rtl">"#))
        #expect(page.text.contains(try Self.expected("ar", .unknownClient).htmlEscaped))
        #expect(page.text.contains(try #require(StringTables.all["ar"]?["error.title"]).htmlEscaped))
    }
}
