import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// Only clients registered as first-party may use `/authorize-challenge` and the account APIs
/// (draft-ietf-oauth-first-party-apps, Security Considerations, "First-Party Applications").
/// ``Fixtures/nativeApp`` is first-party, ``Fixtures/secondApp`` is not.
@Suite("First-party clients: /authorize-challenge and account APIs")
struct FirstPartyClientTests {
    /// A user access token of the third-party ``Fixtures/secondApp``, from the browser code flow.
    static func thirdPartyToken(_ server: TestServer) async throws -> String {
        let flow = OAuthFlow(
            browser: server.client(), clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect,
            scope: "openid profile email")
        return try await flow.tokens().0.accessToken
    }

    @Test("a third-party client gets unauthorized_client at /authorize-challenge; a first-party one signs in")
    func signIn() async throws {
        try await withTestServer { server in
            var flow = ChallengeFlow(server, clientID: Fixtures.secondApp)
            flow.scope = "openid"
            for password in [Fixtures.password, "wrong password"] {
                let refused = try await flow.start(password: password)
                #expect(refused.status == 400)
                let error = try ChallengeFlow.error(refused)
                #expect(error.error == "unauthorized_client")
                #expect(error.errorCode == APIErrorCode.unauthorizedClient.rawValue)
                // Refused before the password is looked at: the answer says nothing about it.
                let description = try #require(error.errorDescription)
                #expect(description.contains("first_party: true") && description.contains("--first-party"))
                #expect(description.contains("/authorize"))
            }

            let tokens = try await ChallengeFlow(server).passwordTokens()
            #expect(!tokens.accessToken.isEmpty)
        }
    }

    @Test("step-up with a third-party token is refused")
    func stepUp() async throws {
        try await withTestServer { server in
            let token = try await Self.thirdPartyToken(server)
            let pkce = PKCE()
            func stepUp(clientID: String) async throws -> APIError {
                let response = try await server.client().postForm(
                    "/authorize-challenge",
                    [
                        "client_id": clientID, "acr_values": AuthenticationContextClass.multiFactor,
                        "code_challenge": pkce.challenge, "code_challenge_method": "S256",
                    ],
                    headers: ["Authorization": "Bearer \(token)"])
                #expect(response.status == 400)
                return try ChallengeFlow.error(response)
            }
            #expect(try await stepUp(clientID: Fixtures.secondApp).error == "unauthorized_client")
            // Naming a first-party client does not help: the token is not that client's.
            #expect(try await stepUp(clientID: Fixtures.nativeApp).error == "invalid_grant")
        }
    }

    @Test("a third-party token is refused by the account and MFA APIs (403, 1021) but reads /userinfo")
    func accountAPIs() async throws {
        try await withAccountAPI { api in
            let server = api.server
            let token = try await Self.thirdPartyToken(server)
            let before = try #require(try await server.store.user(login: Fixtures.username))

            let change = try await api.post(
                "/api/password",
                ["current_password": Fixtures.password, "new_password": "a brand new long password"], token: token)
            let refused = [
                change,
                try await api.call("GET", "/api/profile", token: token),
                try await api.call("PATCH", "/api/profile", ["name": "Mallory"], token: token),
                try await api.post("/api/email", ["email": "mallory@example.com"], token: token),
                try await api.call("DELETE", "/api/account", ["password": Fixtures.password], token: token),
                try await api.call("GET", "/api/devices", token: token),
                try await api.call("GET", "/api/mfa", token: token),
                try await api.call("POST", "/api/mfa/totp", [:], token: token),
            ]
            for response in refused {
                #expect(response.status == 403, "\(response.text)")
                #expect(response.apiError?.error == "insufficient_scope")
                #expect(response.apiError?.errorCode == APIErrorCode.firstPartyClientRequired.rawValue)
                #expect(response.apiError?.errorDescription?.contains(Fixtures.secondApp) == true)
                #expect(response.header("WWW-Authenticate")?.contains(#"error="insufficient_scope""#) == true)
            }
            let after = try #require(try await server.store.user(login: Fixtures.username))
            #expect(after == before, "nothing changed")

            let userInfo = try await server.client().get("/userinfo", headers: ["Authorization": "Bearer \(token)"])
            #expect(userInfo.status == 200, "\(userInfo.text)")
            #expect(try userInfo.json(StandardClaims.self).sub == before.id)

            // The flag is read per request: registering the client as first-party opens the APIs.
            var client = try #require(try await server.store.client(id: Fixtures.secondApp))
            client.firstParty = true
            try await server.store.upsertClient(client)
            #expect(try await api.call("GET", "/api/profile", token: token).status == 200)
        }
    }

    @Test("a first-party token uses the account APIs")
    func firstPartyToken() async throws {
        try await withAccountAPI { api in
            let token = try await api.signInAlice().accessToken
            let profile = try await api.call("GET", "/api/profile", token: token)
            #expect(profile.status == 200, "\(profile.text)")
            #expect(try profile.json(StandardClaims.self).name == "Alice Example")
        }
    }

    @Test("SMS confirmation sets a verified phone_number unless another verified number is on file")
    func verifiedPhoneClaims() {
        var claims = StandardClaims(sub: "u")
        let fresh = SMSEnrollmentEndpoint.verifiedPhoneClaims(claims, number: "+4712345678")
        #expect(fresh?.phoneNumber == "+4712345678" && fresh?.phoneNumberVerified == true)

        claims.phoneNumber = "+4712345678"
        claims.phoneNumberVerified = true
        #expect(SMSEnrollmentEndpoint.verifiedPhoneClaims(claims, number: "+4712345678") == nil, "already verified")
        #expect(SMSEnrollmentEndpoint.verifiedPhoneClaims(claims, number: "+4799999999") == nil, "another verified number stays")

        claims.phoneNumberVerified = false
        let replaced = SMSEnrollmentEndpoint.verifiedPhoneClaims(claims, number: "+4799999999")
        #expect(replaced?.phoneNumber == "+4799999999" && replaced?.phoneNumberVerified == true)
    }
}
