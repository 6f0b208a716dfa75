import TestSupport
import Foundation
import SesameProtocol
import Testing

@testable import Sesame

@Suite("Browser sign-in")
struct SignInTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))

    @Test("an account's ID is base64url of the first 16 bytes of SHA-256(issuer || 0x00 || subject), as stored on devices")
    func accountIDIsStable() {
        // Expected values from Python's hashlib, an implementation of its own.
        #expect(Account.makeID(issuer: "https://id.test", subject: "user-1") == "7tSJG83K-QknuuuD0yRDEw")
        #expect(Account.makeID(issuer: "https://id.example/\u{E9}", subject: "sub-\u{4E2D}") == "wgoiiU_lbv6FjdIM0VmM7Q")
    }

    @Test("sign in stores account and emits event")

    func signInStoresAccountAndEmitsEvent() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        let events = client.events()
        let account = try await client.signIn(with: headlessAgent(provider))
        #expect(account.subject == "user-1")
        #expect(account.issuer == "https://id.test")
        #expect(account.id == Account.makeID(issuer: "https://id.test", subject: "user-1"))
        #expect(account.displayName == "Ada Lovelace")
        #expect(await client.currentAccount() == account)
        let claims = try await client.idTokenClaims()
        #expect(claims.sub == "user-1")

        var iterator = events.makeAsyncIterator()
        guard case .signedIn(let announced) = await iterator.next() else {
            Issue.record("expected signedIn")
            return
        }
        #expect(announced == account)

        // The request carried PKCE S256, state, nonce and no secrets.
        let url = try #require(provider.with { $0.authorizationURLs.first })
        let query = Dictionary(uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["state"]?.count ?? 0 >= 43)
        #expect(query["nonce"]?.count ?? 0 >= 43)
        #expect(query["scope"] == "openid profile email offline_access")
    }

    @Test("options are sent")

    func optionsAreSent() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(
            with: headlessAgent(provider),
            options: SignInOptions(
                prompt: ["login"], loginHint: "ada@example.com", maxAge: 600, uiLocales: ["de", "en"],
                extraParameters: ["resource": "https://api.test"]))
        let url = try #require(provider.with { $0.authorizationURLs.first })
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
        #expect(query["prompt"] == "login")
        #expect(query["login_hint"] == "ada@example.com")
        #expect(query["max_age"] == "600")
        #expect(query["ui_locales"] == "de en")
        #expect(query["resource"] == "https://api.test")
    }

    @Test("extra parameters cannot override protocol parameters")

    func extraParametersCannotOverrideProtocolParameters() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        await #expect(throws: SesameError.self) {
            try await client.signIn(with: headlessAgent(provider), options: SignInOptions(extraParameters: ["state": "x"]))
        }
    }

    @Test("missing iss is rejected when advertised")

    func missingIssIsRejectedWhenAdvertised() async throws {
        let provider = FakeProvider(clock: clock)
        provider.with { $0.omitIss = true }
        let client = makeClient(provider, clock: clock)
        await expectProtocolViolation { try await client.signIn(with: headlessAgent(provider)) }
        #expect(await client.currentAccount() == nil)
    }

    @Test("wrong iss is rejected")

    func wrongIssIsRejected() async throws {
        let provider = FakeProvider(clock: clock)
        provider.with { $0.wrongIss = "https://evil.test" }
        let client = makeClient(provider, clock: clock)
        await expectProtocolViolation { try await client.signIn(with: headlessAgent(provider)) }
    }

    @Test("state mismatch is rejected")

    func stateMismatchIsRejected() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        let agent = HeadlessBrowserAgent { url in
            let redirect = try provider.authorize(url)
            var components = URLComponents(url: redirect, resolvingAgainstBaseURL: false)!
            components.queryItems = components.queryItems?.map {
                $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0
            }
            return components.url!
        }
        await expectProtocolViolation { try await client.signIn(with: agent) }
    }

    @Test("error redirect is authentication failure")

    func errorRedirectIsAuthenticationFailure() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        let agent = HeadlessBrowserAgent { url in
            let state = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value ?? ""
            return URL(string: "com.example.app:/oauth2redirect?error=access_denied&state=\(state)&iss=https%3A%2F%2Fid.test")!
        }
        do {
            _ = try await client.signIn(with: agent)
            Issue.record("sign-in succeeded")
        } catch {
            guard case .authenticationFailed(let apiError, _) = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(apiError.error == "access_denied")
        }
    }

    @Test("key rotation refetches JWKS once")

    func keyRotationRefetchesJWKSOnce() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider))
        #expect(provider.with { $0.jwksRequests } == 1)
        provider.rotateKey(kid: "k2")
        _ = try await client.signIn(with: headlessAgent(provider))
        #expect(provider.with { $0.jwksRequests } == 2)
        // A forged unknown kid right after is not allowed to trigger another fetch.
        provider.with { $0.signingKey = ES256TestKey(kid: "k3") }
        do {
            _ = try await client.signIn(with: headlessAgent(provider))
            Issue.record("token with an unpublished key accepted")
        } catch {
            #expect(error.rule == .unknownKey)
        }
        #expect(provider.with { $0.jwksRequests } == 2)
    }

    @Test("external agent completes through handle redirect")

    func externalAgentCompletesThroughHandleRedirect() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        let agent = ExternalBrowserAgent { url in
            let redirect = try provider.authorize(url)
            Task {
                // Unrelated deep links are ignored and do not disturb the pending request.
                #expect(await client.handleRedirect(url: URL(string: "com.example.app:/other?x=1")!) == false)
                #expect(await client.handleRedirect(url: URL(string: "com.example.app:/oauth2redirect?state=nope&code=x")!) == false)
                #expect(await client.handleRedirect(url: redirect) == true)
            }
        }
        let account = try await client.signIn(with: agent)
        #expect(account.subject == "user-1")
        #expect(await client.handleRedirect(url: URL(string: "com.example.app:/oauth2redirect?state=x")!) == false)
    }

    func expectProtocolViolation(_ body: () async throws -> Account) async {
        do {
            _ = try await body()
            Issue.record("expected a protocol violation")
        } catch {
            guard case .protocolViolation = (error as? SesameError)?.reason else {
                Issue.record("expected protocolViolation, got \(error)")
                return
            }
        }
    }
}
