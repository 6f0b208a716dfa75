import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// One check per module of the OpenID Foundation's Basic OP and Config OP certification plans
/// (`vectors/oidc-op-tests.json`), each what the conformance suite's module asserts, against a
/// fresh server over HTTP. Where the standards let an OP decline a feature (request objects,
/// an access token in the UserInfo request body), the check asserts the refusal the module
/// accepts. Modules needing behaviour shared with others reuse ``CertificationRP``.
enum BasicOPChecks {
    typealias Check = @Sendable (TestServer) async throws -> Void

    static let all: [String: Check] = [
        "oidcc-server": happyFlow,
        "oidcc-response-type-missing": responseTypeMissing,
        "oidcc-idtoken-signature": idTokenSignature,
        "oidcc-idtoken-unsigned": idTokenUnsigned,
        "oidcc-userinfo-get": { try await userInfo($0, method: "GET") },
        "oidcc-userinfo-post-header": { try await userInfo($0, method: "POST") },
        "oidcc-userinfo-post-body": userInfoPostBody,
        "oidcc-ensure-request-without-nonce-succeeds-for-code-flow": withoutNonce,
        "oidcc-scope-profile": { try await scope($0, "profile", expect: ["name", "given_name"]) },
        "oidcc-scope-email": { try await scope($0, "email", expect: ["email", "email_verified"]) },
        "oidcc-scope-address": { try await scope($0, "address", expect: ["address"]) },
        "oidcc-scope-phone": { try await scope($0, "phone", expect: ["phone_number", "phone_number_verified"]) },
        "oidcc-scope-all": {
            try await scope($0, "profile email address phone", expect: ["name", "email", "address", "phone_number"])
        },
        "oidcc-alternate-happy-flow": alternateClient,
        "oidcc-display-page": { try await loginPageWith($0, ["display": "page"]) },
        "oidcc-display-popup": { try await loginPageWith($0, ["display": "popup"]) },
        "oidcc-prompt-login": promptLogin,
        "oidcc-prompt-none-not-logged-in": promptNoneWithoutSession,
        "oidcc-prompt-none-logged-in": promptNoneWithSession,
        "oidcc-max-age-1": maxAgeOne,
        "oidcc-max-age-10000": maxAgeLong,
        "oidcc-ensure-request-with-unknown-parameter-succeeds": { try await succeedsWith($0, ["extra": "foobar"]) },
        "oidcc-id-token-hint": idTokenHint,
        "oidcc-login-hint": loginHint,
        "oidcc-ui-locales": { try await loginPageWith($0, ["ui_locales": "se"]) },
        "oidcc-claims-locales": { try await succeedsWith($0, ["claims_locales": "se"]) },
        "oidcc-ensure-request-with-acr-values-succeeds": acrValues,
        "oidcc-codereuse": { try await codeReuse($0, after: 0) },
        "oidcc-codereuse-30seconds": { try await codeReuse($0, after: 30) },
        "oidcc-ensure-registered-redirect-uri": unregisteredRedirect,
        "oidcc-ensure-post-request-succeeds": postRequest,
        "oidcc-server-client-secret-post": clientSecretPost,
        "oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported": {
            try await refused($0, ["request_uri": "https://rp.example.com/request.jwt"], error: "request_uri_not_supported")
        },
        "oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported": {
            try await refused($0, ["request": unsignedRequestObject], error: "request_not_supported")
        },
        "oidcc-claims-essential": claimsEssential,
        "oidcc-ensure-request-object-with-redirect-uri": {
            try await refused($0, ["request": unsignedRequestObject], error: "request_not_supported")
        },
        "oidcc-refresh-token": refreshToken,
        "oidcc-ensure-request-with-valid-pkce-succeeds": validPKCE,
        "oidcc-discovery-endpoint-verification": discovery,
    ]

    /// `{"alg":"none"}.{"client_id":"native-app","redirect_uri":…}.`
    static let unsignedRequestObject =
        Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "."
        + Base64URL.encode(Array(#"{"client_id":"native-app","redirect_uri":"com.example.app:/oauth2redirect"}"#.utf8))
        + "."

    // MARK: Flows

    static func happyFlow(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (tokens, idToken) = try await rp.tokens()
        #expect(tokens.tokenType.lowercased() == "bearer")
        #expect(idToken["at_hash"] is String)
        #expect(try await rp.userInfo(tokens)["sub"] as? String == idToken["sub"] as? String)
    }

    static func alternateClient(_ server: TestServer) async throws {
        let rp = CertificationRP(server, clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect)
        let (_, idToken) = try await rp.tokens()
        let (_, again) = try await CertificationRP(server).tokens()
        #expect(idToken["sub"] as? String == again["sub"] as? String)  // public subject type
    }

    static func idTokenSignature(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (tokens, _) = try await rp.tokens()
        let header = JWTParts.header(try #require(tokens.idToken))
        let jwks = try await rp.browser.get("/jwks").jsonObject["keys"] as? [[String: Any]] ?? []
        #expect(jwks.contains { $0["kid"] as? String == header["kid"] as? String })
        #expect(header["alg"] as? String == "RS256")
    }

    static func idTokenUnsigned(_ server: TestServer) async throws {
        // The module runs only for OPs that offer alg none; Sesame never does.
        let algorithms = try await CertificationRP(server).metadata()["id_token_signing_alg_values_supported"]
        #expect((algorithms as? [String])?.contains("none") == false)
    }

    static func withoutNonce(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let attempt = OAuthFlow.Attempt()
        let page = try await rp.browser.get("/authorize", query: rp.parameters(attempt, without: ["nonce"]))
        let redirect = try await rp.flow.submitLogin(page: page)
        let code = try #require(redirect.locationQuery["code"], "\(redirect.status) \(redirect.text)")
        let tokens = try await rp.flow.exchange(code, attempt: attempt).json(TokenResponse.self)
        let idToken = try await rp.verifiedIDToken(try #require(tokens.idToken), nonce: nil)
        #expect(idToken["nonce"] == nil)
    }

    static func validPKCE(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let attempt = OAuthFlow.Attempt()
        let code = try await rp.flow.signIn(attempt)
        var wrong = attempt
        wrong.pkce = PKCE()
        #expect(try await rp.flow.exchange(code, attempt: wrong).status == 400)
        let other = OAuthFlow.Attempt()
        let good = try await rp.flow.exchange(try await rp.flow.signIn(other), attempt: other)
        #expect(good.status == 200)
    }

    static func postRequest(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let attempt = OAuthFlow.Attempt()
        let page = try await rp.browser.postForm("/authorize", rp.flow.parameters(attempt))
        #expect(page.status == 200)
        let redirect = try await rp.flow.submitLogin(page: page)
        #expect(redirect.locationQuery["code"] != nil)
        #expect(redirect.locationQuery["state"] == attempt.state)
    }

    static func succeedsWith(_ server: TestServer, _ extra: [String: String]) async throws {
        let (tokens, _) = try await CertificationRP(server).tokens(extra: extra)
        #expect(tokens.idToken != nil)
    }

    static func loginPageWith(_ server: TestServer, _ extra: [String: String]) async throws {
        let page = try await CertificationRP(server).flow.authorize(.init(), extra: extra)
        #expect(page.status == 200)
        #expect(HTMLForm(html: page.text).fields.keys.contains("password"))
        try await succeedsWith(server, extra)
    }

    static func acrValues(_ server: TestServer) async throws {
        let (_, idToken) = try await CertificationRP(server).tokens(extra: ["acr_values": "1 2"])
        #expect(idToken["acr"] is String)
    }

    static func loginHint(_ server: TestServer) async throws {
        let page = try await CertificationRP(server).flow.authorize(.init(), extra: ["login_hint": Fixtures.email])
        #expect(HTMLForm(html: page.text).fields["username"] == Fixtures.email)
    }

    static func claimsEssential(_ server: TestServer) async throws {
        let rp = CertificationRP(server)
        let (tokens, idToken) = try await rp.tokens(extra: ["claims": #"{"userinfo":{"name":{"essential":true}}}"#])
        #expect(try await rp.userInfo(tokens)["name"] as? String == "Alice Example")
        #expect(idToken["name"] == nil)
    }
}
