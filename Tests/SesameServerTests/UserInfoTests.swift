import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("UserInfo endpoint")
struct UserInfoTests {
    @Test("sub equals the ID token's sub; claims follow the scopes", arguments: StoreBackend.available)
    func claimsByScope(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser, scope: "openid email").tokens()
            let response = try await browser.userInfo(tokens.accessToken)
            #expect(response.status == 200)
            let claims = try response.json(StandardClaims.self)
            let idToken = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            #expect(claims.sub == idToken.sub)
            #expect(claims.email == Fixtures.email)
            #expect(claims.emailVerified == true)
            #expect(claims.name == nil)
            #expect(claims.phoneNumber == nil)

            let (all, _) = try await OAuthFlow(browser: browser, scope: "openid profile phone").tokens(
                extra: ["prompt": "login"])
            let full = try await browser.userInfo(all.accessToken).json(StandardClaims.self)
            #expect(full.name == "Alice Example")
            #expect(full.givenName == "Alice")
            #expect(full.preferredUsername == Fixtures.username)
            #expect(full.phoneNumber == "+15550100")
            #expect(full.email == nil)
        }
    }

    @Test("default client scopes are every advertised scope; phone and address claims are released for them", arguments: StoreBackend.available)
    func phoneAndAddressByDefault(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let discovery = try await browser.get("/.well-known/openid-configuration")
            let advertised = try #require(discovery.jsonObject["scopes_supported"] as? [String])
            // Every advertised scope but device_sso, which comes with an app group (single sign-on).
            #expect(Set(ClientRecord.defaultAllowedScopes) == Set(advertised).subtracting(["device_sso"]))
            #expect(ClientSpec(clientID: "x").scopes == ClientRecord.defaultAllowedScopes)
            let seed = ClientSeed(clientID: "x", redirectURIs: ["https://x.example/cb"])
            #expect(try seed.record(secretHash: nil).allowedScopes == ClientRecord.defaultAllowedScopes)

            var user = try #require(try await server.store.user(login: Fixtures.username))
            user.claims.address = AddressClaim(
                formatted: "1 Main St\nSpringfield", streetAddress: "1 Main St", locality: "Springfield",
                postalCode: "12345", country: "US")
            try await server.store.updateUser(user)

            // The second app is registered with the default scopes.
            #expect(try await server.store.client(id: Fixtures.secondApp)?.allowedScopes == ClientRecord.defaultAllowedScopes)
            let flow = OAuthFlow(
                browser: browser, clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect,
                scope: "openid phone address")
            let (tokens, _) = try await flow.tokens()
            #expect(tokens.scope == "openid phone address")
            let response = try await browser.userInfo(tokens.accessToken)
            #expect(response.status == 200)
            let claims = try response.json(StandardClaims.self)
            #expect(claims.phoneNumber == "+15550100")
            #expect(claims.phoneNumberVerified == false)
            #expect(claims.address?.locality == "Springfield")
            #expect(claims.address?.streetAddress == "1 Main St")
            #expect(claims.email == nil)
            #expect(claims.name == nil)
            let object = response.jsonObject
            #expect((object["address"] as? [String: Any])?["postal_code"] as? String == "12345")
        }
    }

    @Test("only the Bearer header is accepted; bad tokens get 401 with WWW-Authenticate", arguments: StoreBackend.available)
    func bearerOnly(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let missing = try await browser.get("/userinfo")
            #expect(missing.status == 401)
            #expect(missing.header("WWW-Authenticate") == #"Bearer realm="sesame""#)  // RFC 6750 §3.1

            let inQuery = try await browser.get("/userinfo", query: ["access_token": tokens.accessToken])
            #expect(inQuery.status == 401)

            let idTokenAsAccess = try await browser.userInfo(try #require(tokens.idToken))
            #expect(idTokenAsAccess.status == 401)

            // The second-to-last base64url character carries signature bits (the last one
            // partly padding), so replacing both always changes the signature.
            let tampered = String(tokens.accessToken.dropLast(2)) + (tokens.accessToken.hasSuffix("AA") ? "BB" : "AA")
            let bad = try await browser.userInfo(tampered)
            #expect(bad.status == 401)
            #expect(bad.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)

            let clientCredentials = try await browser.postForm(
                "/token", ["grant_type": "client_credentials"],
                headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret)
            ).json(TokenResponse.self)
            #expect(try await browser.userInfo(clientCredentials.accessToken).status != 200)
        }
    }

    @Test("an expired access token is refused", arguments: StoreBackend.available)
    func expired(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            server.clock.advance(by: 901)
            let response = try await browser.userInfo(tokens.accessToken)
            #expect(response.status == 401)
            #expect(try response.json(APIError.self).error == "invalid_token")
        }
    }
}
