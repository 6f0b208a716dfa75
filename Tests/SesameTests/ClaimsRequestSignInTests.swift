import TestSupport
import Foundation
import SesameProtocol
import Testing

@testable import Sesame

/// The OIDC Core §5.5 `claims` request through browser sign-in: sent as JSON, reserved against
/// `extraParameters`, and its `id_token` constraints checked on the returned ID token.
@Suite("Browser sign-in with a claims request")
struct ClaimsRequestSignInTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))
    let mfa = ClaimsRequest(
        userinfo: ["email": IndividualClaimRequest()],
        idToken: ["acr": IndividualClaimRequest(essential: true, values: [.string("urn:sesame:acr:mfa")])])

    func query(_ provider: FakeProvider) throws -> [String: String] {
        let url = try #require(provider.with { $0.authorizationURLs.first })
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
    }

    @Test("claims are sent as JSON")

    func claimsAreSentAsJSON() async throws {
        let provider = FakeProvider(clock: clock)
        provider.with { $0.extraClaims = ["acr": "urn:sesame:acr:mfa"] }
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider), options: SignInOptions(claims: mfa))
        let sent = try #require(try query(provider)["claims"])
        #expect(sent == #"{"id_token":{"acr":{"essential":true,"values":["urn:sesame:acr:mfa"]}},"userinfo":{"email":null}}"#)
        #expect(try ClaimsRequest.parse(sent) == mfa)
    }

    @Test("empty claims are not sent")

    func emptyClaimsAreNotSent() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        _ = try await client.signIn(with: headlessAgent(provider), options: SignInOptions(claims: ClaimsRequest()))
        #expect(try query(provider)["claims"] == nil)
    }

    @Test("extra parameters cannot override claims")

    func extraParametersCannotOverrideClaims() async throws {
        let provider = FakeProvider(clock: clock)
        let client = makeClient(provider, clock: clock)
        for claims in [mfa, nil] {
            do {
                _ = try await client.signIn(
                    with: headlessAgent(provider),
                    options: SignInOptions(claims: claims, extraParameters: ["claims": #"{"id_token":{"acr":null}}"#]))
                Issue.record("extraParameters overrode claims")
            } catch {
                guard case .invalidConfiguration(let detail) = error.reason else {
                    Issue.record("expected invalidConfiguration, got \(error)")
                    continue
                }
                #expect(detail.contains("\"claims\""))
            }
        }
        #expect(provider.with { $0.authorizationURLs.isEmpty })
    }

    @Test("essential ACR not met is rejected")

    func essentialACRNotMetIsRejected() async throws {
        let provider = FakeProvider(clock: clock)
        provider.with { $0.extraClaims = ["acr": "urn:sesame:acr:pwd"] }
        let client = makeClient(provider, clock: clock)
        do {
            _ = try await client.signIn(with: headlessAgent(provider), options: SignInOptions(claims: mfa))
            Issue.record("an ID token without the essential acr was accepted")
        } catch {
            #expect(error.rule == .acr)
        }
        #expect(await client.currentAccount() == nil)
    }

    @Test("requested subject mismatch is rejected")

    func requestedSubjectMismatchIsRejected() async throws {
        let provider = FakeProvider(clock: clock, subject: "user-2")
        let client = makeClient(provider, clock: clock)
        let claims = ClaimsRequest(idToken: ["sub": IndividualClaimRequest(value: .string("user-1"))])
        do {
            _ = try await client.signIn(with: headlessAgent(provider), options: SignInOptions(claims: claims))
            Issue.record("an ID token for another user was accepted")
        } catch {
            #expect(error.rule == .requestedSubject)
        }
        #expect(await client.currentAccount() == nil)
        // The requested user signs in.
        provider.with { $0.subject = "user-1" }
        let account = try await client.signIn(with: headlessAgent(provider), options: SignInOptions(claims: claims))
        #expect(account.subject == "user-1")
    }
}
