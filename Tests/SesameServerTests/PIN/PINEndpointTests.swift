import Crypto
import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// The PIN endpoints and the unlock grant over HTTP (docs/pin-devices.md), with a raw Ed25519 key
/// standing in for the SDK's PIN-sealed one: the recent-sign-in rule, the policy, nonces that are
/// single-use and bound to their registration, the failure count and its reset, revocation by the
/// user, and the client's policy from the store.
@Suite("PIN endpoints and the unlock grant")
struct PINEndpointTests {
    struct Device {
        let key = Curve25519.Signing.PrivateKey()
        var publicKey: String { Base64URL.encode(key.publicKey.rawRepresentation) }
    }

    static func register(_ flow: ChallengeFlow, token: String, device: Device) async throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: ["public_key": device.publicKey, "label": "test phone"])
        return try await flow.http.post(
            "/api/pin/registrations", body: body,
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"])
    }

    static func nonce(_ flow: ChallengeFlow, registration: String) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: ["client_id": flow.clientID, "registration_id": registration])
        let response = try await flow.http.post("/api/pin/nonce", body: body, headers: ["Content-Type": "application/json"])
        try #require(response.status == 200, "\(response.text)")
        return try response.json(PINNonce.self).nonce
    }

    static func unlock(_ flow: ChallengeFlow, registration: String, nonce: String, key: Curve25519.Signing.PrivateKey) async throws
        -> TestResponse
    {
        let signature = try key.signature(for: PINUnlock.signingInput(registrationID: registration, nonce: nonce))
        return try await flow.http.postForm(
            "/token",
            [
                "grant_type": PINUnlock.grantType, "client_id": flow.clientID, "registration_id": registration,
                "nonce": nonce, "signature": Base64URL.encode(signature),
            ])
    }

    @Test("register needs a recent sign-in; unlock gives tokens with amr pin swk; a nonce is single-use and bound to its registration; wrong keys count down and a right one resets the count", arguments: StoreBackend.available)
    func registerAndUnlock(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            let stale = try await flow.passwordTokens()
            server.clock.advance(by: 301)
            let device = Device()
            let refused = try await Self.register(flow, token: stale.accessToken, device: device)
            #expect(refused.status == 400)
            #expect(try refused.json(APIError.self).code == .insufficientAuthorization)

            let fresh = try await flow.passwordTokens()
            let created = try await Self.register(flow, token: fresh.accessToken, device: device)
            #expect(created.status == 201, "\(created.text)")
            let registration = try created.json(PINRegistration.self)
            #expect(registration.policy == PINPolicy() && registration.label == "test phone" && registration.failures == 0)

            let nonce = try await Self.nonce(flow, registration: registration.id)
            let unlocked = try await Self.unlock(flow, registration: registration.id, nonce: nonce, key: device.key)
            #expect(unlocked.status == 200, "\(unlocked.text)")
            let tokens = try unlocked.json(TokenResponse.self)
            #expect(JWTParts.payload(tokens.accessToken)["amr"] as? [String] == ["pin", "swk"])
            #expect(JWTParts.payload(tokens.accessToken)["sid"] as? String == "pin:" + registration.id)
            #expect(tokens.refreshToken != nil)

            // The same nonce again: refused, and not counted as a wrong PIN.
            let replay = try await Self.unlock(flow, registration: registration.id, nonce: nonce, key: device.key)
            #expect(try replay.json(APIError.self).code == .invalidGrant)
            #expect(try replay.json(APIError.self).errorDescription?.contains("reused") == true)

            // Wrong key (a wrong PIN) twice: 2, then 1 left; the right one resets the count.
            let wrong = Curve25519.Signing.PrivateKey()
            for remaining in [2, 1] {
                let answer = try await Self.unlock(
                    flow, registration: registration.id, nonce: try await Self.nonce(flow, registration: registration.id), key: wrong)
                let error = try answer.json(APIError.self)
                #expect(error.code == .invalidPIN && error.remainingAttempts == remaining, "\(answer.text)")
            }
            let reset = try await Self.unlock(
                flow, registration: registration.id, nonce: try await Self.nonce(flow, registration: registration.id), key: device.key)
            #expect(reset.status == 200)
            let again = try await Self.unlock(
                flow, registration: registration.id, nonce: try await Self.nonce(flow, registration: registration.id), key: wrong)
            #expect(try again.json(APIError.self).remainingAttempts == 2, "the count started over")
        }
    }

    @Test("the user lists and removes PIN devices; removal ends the tokens issued through the registration; a client's own policy is published")
    func listRemoveAndPolicy() async throws {
        try await withTestServer { server in
            let pins = server.store
            try await pins.setPINPolicy(
                PINPolicy(minimumLength: 6, blacklist: ["246810"], maximumAttempts: 5), clientID: Fixtures.nativeApp)
            let flow = ChallengeFlow(server)
            let policy = try await flow.http.get("/api/pin/policy", query: ["client_id": Fixtures.nativeApp])
            #expect(try policy.json(PINPolicy.self) == PINPolicy(minimumLength: 6, blacklist: ["246810"], maximumAttempts: 5))
            #expect(try await flow.http.get("/api/pin/policy", query: ["client_id": "nobody"]).status == 401)

            let signedIn = try await flow.passwordTokens()
            let device = Device()
            let registration = try await Self.register(flow, token: signedIn.accessToken, device: device).json(PINRegistration.self)
            let auth = ["Authorization": "Bearer \(signedIn.accessToken)"]
            let list = try await flow.http.get("/api/pin/registrations", headers: auth).json(PINRegistrationList.self)
            #expect(list.registrations.map(\.id) == [registration.id])

            let unlocked = try await Self.unlock(
                flow, registration: registration.id, nonce: try await Self.nonce(flow, registration: registration.id), key: device.key)
            let pinTokens = try unlocked.json(TokenResponse.self)
            let pinAuth = ["Authorization": "Bearer \(pinTokens.accessToken)"]
            #expect(try await flow.http.get("/userinfo", headers: pinAuth).status == 200)

            let removed = try await flow.http.request("DELETE", "/api/pin/registrations/\(registration.id)", headers: auth)
            #expect(removed.status == 204, "\(removed.text)")
            #expect(try await flow.http.get("/userinfo", headers: pinAuth).status == 401, "the PIN session's token ends")
            let refresh = try await flow.http.postForm(
                "/token", ["grant_type": "refresh_token", "refresh_token": pinTokens.refreshToken ?? "", "client_id": flow.clientID])
            #expect(refresh.status == 400)
            let gone = try await flow.http.post(
                "/api/pin/nonce",
                body: try JSONSerialization.data(withJSONObject: ["client_id": flow.clientID, "registration_id": registration.id]),
                headers: ["Content-Type": "application/json"])
            #expect(try gone.json(APIError.self).code == .pinRegistrationRevoked)
            #expect(try await flow.http.get("/userinfo", headers: auth).status == 200, "the password session is untouched")
        }
    }
}
