import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Profile API")
struct ProfileTests {
    @Test("GET returns every claim the user has, whatever the token's scopes", arguments: StoreBackend.available)
    func get(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let flow = OAuthFlow(browser: api.server.client(), scope: "openid")
            let (tokens, _) = try await flow.tokens()
            let response = try await api.call("GET", "/api/profile", token: tokens.accessToken)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            let claims = try response.json(StandardClaims.self)
            let user = try #require(try await api.server.store.user(login: Fixtures.username))
            #expect(claims.sub == user.id)
            #expect(claims.name == "Alice Example")
            #expect(claims.email == Fixtures.email)
            #expect(claims.emailVerified == true)
            #expect(claims.phoneNumber == "+15550100")
            #expect(claims.preferredUsername == Fixtures.username)
            #expect(claims.updatedAt != nil)

            #expect(try await api.call("GET", "/api/profile").status == 401)
            #expect(try await api.call("GET", "/api/profile", token: "not-a-token").status == 401)
        }
    }

    @Test("PATCH sets, keeps (absent or null) and clears (\"\") claims and moves updated_at")
    func patch() async throws {
        try await withAccountAPI { api in
            let tokens = try await api.signInAlice()
            let before = try await api.call("GET", "/api/profile", token: tokens.accessToken).json(StandardClaims.self)
            api.server.clock.advance(by: 60)
            let response = try await api.call(
                "PATCH", "/api/profile",
                [
                    "given_name": "Alicia", "name": "", "family_name": NSNull(), "birthdate": "1990-02-28",
                    "zoneinfo": "Europe/Oslo", "locale": "nb-NO", "website": "https://alice.example.com",
                    "phone_number": "+4712345678", "address": ["country": "Norway", "locality": "Oslo"],
                ], token: tokens.accessToken)
            try #require(response.status == 200, "\(response.text)")
            let claims = try response.json(StandardClaims.self)
            #expect(claims.givenName == "Alicia")
            #expect(claims.name == nil)
            #expect(claims.birthdate == "1990-02-28")
            #expect(claims.zoneinfo == "Europe/Oslo")
            #expect(claims.locale == "nb-NO")
            #expect(claims.website == "https://alice.example.com")
            #expect(claims.phoneNumber == "+4712345678")
            #expect(claims.phoneNumberVerified == false)
            #expect(claims.address == AddressClaim(locality: "Oslo", country: "Norway"))
            #expect(claims.email == Fixtures.email)
            #expect((claims.updatedAt ?? 0) >= (before.updatedAt ?? 0) + 60)

            let stored = try #require(try await api.server.store.user(login: Fixtures.username))
            #expect(stored.claims.givenName == "Alicia")
            let userInfo = try await api.browser.userInfo(tokens.accessToken).json(StandardClaims.self)
            #expect(userInfo.givenName == "Alicia", "/userinfo sees the change")

            let partial = try await api.call(
                "PATCH", "/api/profile", ["address": ["locality": ""]], token: tokens.accessToken)
            #expect(try partial.json(StandardClaims.self).address == AddressClaim(country: "Norway"))
        }
    }

    @Test("read-only members are not_writable; formats and lengths are checked field by field", arguments: StoreBackend.available)
    func refusals(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let tokens = try await api.signInAlice()
            let readOnly = try await api.call(
                "PATCH", "/api/profile",
                ["sub": "x", "email": "x@example.com", "email_verified": false, "phone_number_verified": true,
                 "nickname": "ok"],
                token: tokens.accessToken)
            #expect(readOnly.status == 400)
            #expect(readOnly.apiError?.code == .validationFailed)
            #expect(
                readOnly.detailCodes == [
                    "email: not_writable", "email_verified: not_writable", "phone_number_verified: not_writable",
                    "sub: not_writable",
                ])
            #expect(readOnly.apiError?.errorDetails?.first?.message == "This field cannot be changed here.")

            let formats = try await api.call(
                "PATCH", "/api/profile",
                [
                    "birthdate": "2001-02-30", "zoneinfo": "Mars/Olympus_Mons", "locale": "x",
                    "phone_number": "12345", "website": "ftp://example.com", "picture": "not a url",
                    "name": String(repeating: "n", count: 300), "address": ["country": "\u{7}"],
                ],
                token: tokens.accessToken)
            #expect(
                formats.detailCodes == [
                    "address.country: invalid_format", "birthdate: invalid_format", "locale: invalid_format",
                    "name: too_long", "phone_number: invalid_format", "picture: invalid_format",
                    "website: invalid_format", "zoneinfo: invalid_format",
                ])
            #expect(formats.apiError?.errorDetails?.first { $0.field == "name" }?.message == "Use at most 256 characters.")

            let wrongType = try await api.call("PATCH", "/api/profile", ["address": "Oslo"], token: tokens.accessToken)
            #expect(wrongType.detailCodes == ["address: invalid_format"])

            let unchanged = try await api.call("GET", "/api/profile", token: tokens.accessToken).json(StandardClaims.self)
            #expect(unchanged.name == "Alice Example")
            #expect(unchanged.nickname == nil, "a refused request changes nothing")
        }
    }

    @Test("birthdates: YYYY, YYYY-MM-DD and 0000-MM-DD, real dates only")
    func birthdates() {
        #expect(ProfileValidation.isBirthdate("1990"))
        #expect(ProfileValidation.isBirthdate("2000-02-29"))
        #expect(ProfileValidation.isBirthdate("0000-02-29"))
        #expect(!ProfileValidation.isBirthdate("1999-02-29"))
        #expect(!ProfileValidation.isBirthdate("1990-1-01"))
        #expect(!ProfileValidation.isBirthdate("0000"))
        #expect(!ProfileValidation.isBirthdate("１９９０"))
    }
}
