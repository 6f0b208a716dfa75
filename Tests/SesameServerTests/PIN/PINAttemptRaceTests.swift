import Crypto
import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// The PIN attempt limit under concurrency (docs/pin-devices.md, "Reserve, then verify"; issue
/// #28 §2): 20 unlocks sent at once, each with its own fresh nonce, against the default policy
/// of 3 wrong PINs. Before the reservation, every request that found the registration still
/// there had its signature checked (19 of 20), and a right PIN sent last among 19 wrong ones
/// unlocked after 18 wrong ones were checked.
@Suite("PIN attempts under concurrency")
struct PINAttemptRaceTests {
    /// What the answers and the audit log say about one race.
    struct Race {
        /// Unlocks that issued tokens.
        var unlocked = 0
        /// `invalid_pin` answers: wrong PINs checked, attempts left.
        var wrongWithAttemptsLeft = 0
        /// All 400 answers, by error code.
        var codes: [APIErrorCode?] = []
        /// Signatures the server checked and found wrong (`pin.failed` + the one
        /// `pin.removed too_many_wrong_pins` per revocation that a checked guess caused).
        var wrongChecked = 0
        var revocations = 0
    }

    /// A registered device of the fixture user, through a fresh password sign-in.
    static func registered(_ server: TestServer) async throws -> (ChallengeFlow, PINEndpointTests.Device, PINRegistration) {
        let flow = ChallengeFlow(server)
        let tokens = try await flow.passwordTokens()
        let device = PINEndpointTests.Device()
        let created = try await PINEndpointTests.register(flow, token: tokens.accessToken, device: device)
        try #require(created.status == 201, "\(created.text)")
        return (flow, device, try created.json(PINRegistration.self))
    }

    /// Sends one unlock per key at once, each with its own nonce taken beforehand; the right key,
    /// if any, is added to the task group last.
    static func race(
        _ server: TestServer, flow: ChallengeFlow, registration: PINRegistration, keys: [Curve25519.Signing.PrivateKey]
    ) async throws -> Race {
        var nonces: [String] = []
        for _ in keys { nonces.append(try await PINEndpointTests.nonce(flow, registration: registration.id)) }
        let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for (key, nonce) in zip(keys, nonces) {
                group.addTask { try await PINEndpointTests.unlock(flow, registration: registration.id, nonce: nonce, key: key) }
            }
            return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
        }
        var race = Race()
        for answer in answers {
            if answer.status == 200 {
                race.unlocked += 1
                continue
            }
            let error = try answer.json(APIError.self)
            race.codes.append(error.code)
            if error.code == .invalidPIN { race.wrongWithAttemptsLeft += 1 }
        }
        await server.running.flushAuditLog()
        let log = server.store
        let events = try await log.auditRecords(AuditQuery(events: ["pin."]))
        race.revocations = events.filter { $0.event == "pin.removed" && $0.reason == "too_many_wrong_pins" }.count
        race.wrongChecked = events.filter { $0.event == "pin.failed" }.count + race.revocations
        return race
    }

    @Test(
        "20 wrong PINs at once, each with its own nonce: exactly 3 signatures are checked, the registration is revoked once, and a right PIN afterwards is refused",
        arguments: StoreBackend.available)
    func twentyWrongAtOnce(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            server.clock.freeze()
            let (flow, device, registration) = try await Self.registered(server)
            let wrong = (0..<20).map { _ in Curve25519.Signing.PrivateKey() }
            let race = try await Self.race(server, flow: flow, registration: registration, keys: wrong)
            #expect(race.unlocked == 0)
            #expect(race.wrongChecked == 3, "\(race.wrongChecked) wrong PINs were checked; the policy allows 3")
            #expect(race.wrongWithAttemptsLeft == 2, "\(race.codes)")
            #expect(race.revocations == 1)
            #expect(race.codes.filter { $0 == .pinRegistrationRevoked }.count == 18, "\(race.codes)")

            // The limit was reached: the right PIN no longer unlocks (the registration is gone).
            let after = try await flow.http.postForm(
                "/token",
                [
                    "grant_type": PINUnlock.grantType, "client_id": flow.clientID, "registration_id": registration.id,
                    "nonce": "n", "signature": Base64URL.encode(try device.key.signature(for: Data("x".utf8))),
                ])
            #expect(try after.json(APIError.self).code == .pinRegistrationRevoked)
            let pins = server.store
            #expect(try await pins.pinRegistration(id: registration.id) == nil)
        }
    }

    @Test(
        "the right PIN sent last among 19 wrong ones: it unlocks only if it held one of the 3 attempts, and never after 3 wrong PINs were checked",
        arguments: StoreBackend.available)
    func rightPINAmongWrongOnes(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            server.clock.freeze()
            let (flow, device, registration) = try await Self.registered(server)
            let keys = (0..<19).map { _ in Curve25519.Signing.PrivateKey() } + [device.key]
            let race = try await Self.race(server, flow: flow, registration: registration, keys: keys)
            #expect(race.unlocked <= 1)
            if race.unlocked == 0 {
                // The 3 attempts went to wrong PINs: exactly 3 checked, the registration revoked.
                #expect(race.wrongChecked == 3, "\(race.wrongChecked) wrong PINs were checked; the policy allows 3")
                #expect(race.revocations == 1)
            } else {
                // The right PIN held one of the first 3 attempts (at most 2 wrong ones checked
                // before it); its success started the count over, so at most 3 more were checked.
                #expect(race.wrongChecked <= 2 + 3, "\(race.wrongChecked) wrong PINs were checked around one unlock")
                #expect(race.revocations <= 1)
            }
        }
    }
}
