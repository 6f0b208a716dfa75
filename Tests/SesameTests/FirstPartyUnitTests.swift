import TestSupport
import Foundation
import Logging
import SesameProtocol
import Testing

@testable import Sesame

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pure parts of native sign-in and the account API client: how answers of the
/// authorization challenge endpoint are read, how API requests are built, and how sessions are
/// stored. The flows themselves are tested against the real server (SesameIntegrationTests).
@Suite("First-party sign-in and account API: pure parts")
struct FirstPartyUnitTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))

    private func json(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    // MARK: Authorization challenge answers (draft-ietf-oauth-first-party-apps §5.2)

    @Test("success is an authorization code")

    func successIsAnAuthorizationCode() throws {
        let outcome = try AuthorizationChallengeClient.outcome(
            data: json(["authorization_code": "abc"]), status: 200)
        guard case .authorizationCode(let code) = outcome else {
            Issue.record("expected a code, got \(outcome)")
            return
        }
        #expect(code == "abc")
    }

    @Test("success without code is malformed")

    func successWithoutCodeIsMalformed() throws {
        #expect {
            _ = try AuthorizationChallengeClient.outcome(data: json(["authorization_code": ""]), status: 200)
        } throws: { error in
            guard case .technical(.malformedResponse) = (error as? SesameError)?.reason else { return false }
            return true
        }
    }

    @Test("insufficient authorization is a continuation")

    func insufficientAuthorizationIsAContinuation() throws {
        let outcome = try AuthorizationChallengeClient.outcome(
            data: json([
                "error": "insufficient_authorization", "error_code": 2002, "auth_session": "s1",
                "mfa_methods": ["email", "totp", "carrier_pigeon", "passkey"],
            ]), status: 400)
        guard case .insufficientAuthorization(let apiError) = outcome else {
            Issue.record("expected a continuation, got \(outcome)")
            return
        }
        #expect(apiError.authSession == "s1")
        let exchange = ChallengeExchange(
            challenges: try challengeClient(), pkce: PKCE(), continuation: apiError, extraParameters: [])
        // Unknown method names (a later method) are skipped, the order kept.
        #expect(exchange.methods == [.email, .totp, .passkey])
        #expect(exchange.chosenMethod == nil)
    }

    @Test("unavailable method is a request error")

    func unavailableMethodIsARequestError() throws {
        #expect {
            _ = try AuthorizationChallengeClient.outcome(
                data: json([
                    "error": "insufficient_authorization", "error_code": 2006, "auth_session": "s1",
                ]), status: 400)
        } throws: { error in
            guard case .requestFailed(let apiError, 400) = (error as? SesameError)?.reason else { return false }
            return apiError.code == .mfaMethodUnavailable
        }
    }

    @Test("wrong code carries remaining attempts")

    func wrongCodeCarriesRemainingAttempts() throws {
        #expect {
            _ = try AuthorizationChallengeClient.outcome(
                data: json([
                    "error": "invalid_grant", "error_code": 2003, "remaining_attempts": 2,
                    "error_description": "The verification code is incorrect.",
                ]), status: 400)
        } throws: { error in
            guard let error = error as? SesameError, case .authenticationFailed(_, 400) = error.reason else {
                return false
            }
            return error.remainingAttempts == 2 && error.apiErrorCode == .invalidMFACode
        }
    }

    @Test("wrong password is an authentication failure")

    func wrongPasswordIsAnAuthenticationFailure() throws {
        #expect {
            _ = try AuthorizationChallengeClient.outcome(
                data: json(["error": "invalid_grant", "error_code": 2000]), status: 400)
        } throws: { error in
            guard let error = error as? SesameError, case .authenticationFailed = error.reason else { return false }
            return error.apiErrorCode == .invalidCredentials && error.remainingAttempts == nil
        }
    }

    @Test("throttled password is a request error with Retry-After")

    func throttledPasswordIsARequestErrorWithRetryAfter() throws {
        #expect {
            _ = try AuthorizationChallengeClient.outcome(
                data: json([
                    "error": "temporarily_unavailable", "error_code": 2009, "retry_after": 60,
                    "error_description": "Too many failed password attempts. Try again in 60 seconds.",
                    "error_user_msg": "Too many incorrect password attempts.", "error_id": "e1",
                ]), status: 429)
        } throws: { error in
            guard let error = error as? SesameError, case .requestFailed(let apiError, 429) = error.reason else {
                return false
            }
            return error.apiErrorCode == .tooManyAttempts && error.retryAfter == 60
                && apiError.errorUserMessage == "Too many incorrect password attempts." && apiError.errorID == "e1"
        }
    }

    @Test("provider without challenge endpoint is a clear configuration error")

    func providerWithoutChallengeEndpointIsAClearConfigurationError() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        let error = await #expect(throws: SesameError.self) {
            _ = try await client.login(username: "ada", password: "pw")
        }
        guard case .invalidConfiguration(let detail)? = error?.reason else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("authorization_challenge_endpoint"))
        #expect(detail.contains("signIn(with:)"))
        #expect(provider.with { $0.requests.allSatisfy { !$0.contains("authorize-challenge") } })
    }

    // MARK: Requests

    @Test("step up request carries the bearer and moves the secret into the body")

    func stepUpRequestCarriesTheBearerAndMovesTheSecretIntoTheBody() async throws {
        var configuration = SesameConfiguration(
            issuer: URL(string: "https://id.test")!, clientID: "app",
            redirectURI: URL(string: "com.example.app:/cb")!)
        configuration.clientSecret = "s3cret"
        let endpoint = TokenEndpointClient(
            configuration: configuration, http: ProviderHTTP(transport: URLSessionTransport()),
            clock: clock, clockOffset: ServerClockOffset(), logger: Logger(label: "test"))
        let metadata = try challengeMetadata()
        let plain = try await endpoint.makeRequest(metadata.tokenEndpoint, [("a", "1")], metadata: metadata)
        #expect(plain.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Basic ") == true)
        let stepUp = try await endpoint.makeRequest(
            metadata.tokenEndpoint, [("a", "1")], metadata: metadata, bearerToken: "tok")
        #expect(stepUp.value(forHTTPHeaderField: "Authorization") == "Bearer tok")
        let body = String(decoding: stepUp.httpBody ?? Data(), as: UTF8.self)
        #expect(body.contains("client_id=app") && body.contains("client_secret=s3cret"))
    }

    @Test("account API URLs are below the issuer with encoded segments")

    func accountAPIURLsAreBelowTheIssuerWithEncodedSegments() {
        let api = AccountAPI(issuer: URL(string: "https://id.test/tenant/")!)
        #expect(api.url("profile").absoluteString == "https://id.test/tenant/api/profile")
        #expect(api.url("mfa", "totp", "confirm").absoluteString == "https://id.test/tenant/api/mfa/totp/confirm")
        #expect(api.url("devices", "watch 1/a?b").absoluteString == "https://id.test/tenant/api/devices/watch%201%2Fa%3Fb")
    }

    @Test("account API requests are JSON")

    func accountAPIRequestsAreJSON() throws {
        let api = AccountAPI(issuer: URL(string: "https://id.test")!)
        let request = try api.request("PATCH", "profile", json: ProfileUpdate(name: "Ada", locale: "en-GB"))
        #expect(request.httpMethod == "PATCH")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: String]
        #expect(body == ["name": "Ada", "locale": "en-GB"])
    }

    @Test("account API errors keep the field details")

    func accountAPIErrorsKeepTheFieldDetails() throws {
        let url = URL(string: "https://id.test/api/profile")!
        let response = HTTPURLResponse(url: url, statusCode: 400, httpVersion: nil, headerFields: nil)!
        let data = try json([
            "error": "invalid_request", "error_code": 3000,
            "error_details": [["field": "email", "message": "This field cannot be changed here.", "code": "not_writable"]],
        ])
        #expect {
            try AccountAPI.check(data, response, what: "profile")
        } throws: { error in
            guard let error = error as? SesameError, case .requestFailed(_, 400) = error.reason else { return false }
            return error.fieldErrors.map(\.code) == ["not_writable"] && error.apiErrorCode == .validationFailed
        }
        let noContent = HTTPURLResponse(url: url, statusCode: 204, httpVersion: nil, headerFields: nil)!
        try AccountAPI.check(Data(), noContent, what: "device removal")
    }

    @Test("step up challenge on an API becomes step up required")

    func stepUpChallengeOnAnAPIBecomesStepUpRequired() throws {
        let url = URL(string: "https://id.test/api/profile")!
        let response = HTTPURLResponse(
            url: url, statusCode: 401, httpVersion: nil,
            headerFields: ["WWW-Authenticate": #"Bearer error="insufficient_user_authentication""#])!
        #expect {
            try AccountAPI.check(Data(), response, what: "profile")
        } throws: { error in
            guard case .stepUpRequired = (error as? SesameError)?.reason else { return false }
            return true
        }
    }

    // MARK: Sessions

    @Test("sessions stored before the username existed still decode")

    func sessionsStoredBeforeTheUsernameExistedStillDecode() throws {
        let account = Account(issuer: "https://id.test", subject: "u", lastUsedAt: clock.now())
        let session = StoredSession(account: account, accessToken: "at", username: "ada")
        var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any] ?? [:]
        #expect(object["username"] as? String == "ada")
        object["username"] = nil
        let old = try JSONDecoder().decode(StoredSession.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.username == nil && old.accessToken == "at")
    }

    @Test("replace keeps order and ends the generation")

    func replaceKeepsOrderAndEndsTheGeneration() async throws {
        let registry = SessionRegistry(
            store: InMemoryCredentialStore(), events: EventBroadcaster(), logger: Logger(label: "test"))
        let first = StoredSession(
            account: Account(issuer: "https://id.test", subject: "a", lastUsedAt: clock.now()), accessToken: "a1")
        let second = StoredSession(
            account: Account(issuer: "https://id.test", subject: "b", lastUsedAt: clock.now()), accessToken: "b1")
        try await registry.signIn(first)
        try await registry.signIn(second)
        let (_, generation) = try await registry.session(for: first.account.id)
        var stepped = first
        stepped.accessToken = "a2"
        #expect(try await registry.replace(first.account.id, generation: generation, with: stepped))
        let (now, newGeneration) = try await registry.session(for: first.account.id)
        #expect(now.accessToken == "a2")
        #expect(newGeneration != generation)
        #expect(await registry.accounts().map(\.subject) == ["b", "a"])
        // A second replace with the old generation (e.g. a step-up begun before) is refused.
        stepped.accessToken = "a3"
        #expect(try await !registry.replace(first.account.id, generation: generation, with: stepped))
        await registry.remove(first.account.id)
        #expect(try await !registry.replace(first.account.id, generation: newGeneration, with: stepped))
    }

    @Test("reauthentication grant never prints the token")

    func reauthenticationGrantNeverPrintsTheToken() {
        let account = Account(issuer: "https://id.test", subject: "u", lastUsedAt: clock.now())
        let grant = ReauthenticationGrant(
            accessToken: "eyJ.secret.token", expiresAt: nil,
            idTokenClaims: IDTokenClaims(iss: "https://id.test", sub: "u", aud: ["app"]), account: account)
        #expect(!"\(grant)".contains("secret"))
        #expect("\(grant)".contains("<redacted:16>"))
    }

    // MARK: Helpers

    private func challengeMetadata() throws -> ProviderMetadata {
        ProviderMetadata(
            issuer: "https://id.test", authorizationEndpoint: URL(string: "https://id.test/authorize")!,
            tokenEndpoint: URL(string: "https://id.test/token")!, jwksURI: URL(string: "https://id.test/jwks")!,
            authorizationChallengeEndpoint: URL(string: "https://id.test/authorize-challenge")!)
    }

    private func challengeClient() throws -> AuthorizationChallengeClient {
        let configuration = SesameConfiguration(
            issuer: URL(string: "https://id.test")!, clientID: "app",
            redirectURI: URL(string: "com.example.app:/cb")!)
        let http = ProviderHTTP(transport: URLSessionTransport())
        let tokens = TokenEndpointClient(
            configuration: configuration, http: http, clock: clock, clockOffset: ServerClockOffset(),
            logger: Logger(label: "test"))
        return try AuthorizationChallengeClient(
            metadata: challengeMetadata(), tokenEndpoint: tokens, logger: Logger(label: "test"))
    }
}
