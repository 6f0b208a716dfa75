import Crypto
import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing

/// The PIN attempt limit holds across processes (docs/pin-devices.md, "Reserve, then verify";
/// issue #28 §2): two real `sesame serve` processes on one PostgreSQL database, 20 unlocks sent
/// at once, half to each, each with its own nonce, against the default policy of 3 wrong PINs.
@Suite(
    "PIN attempts across two sesame serve processes (PostgreSQL)",
    .enabled(if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired, "no PostgreSQL here; CI runs this"))
struct PINRaceProcessTests {
    static let password = "a-long-password-for-pin-races"

    /// A fresh sign-in of alice at `http` (first-party, password only) → an access token.
    static func accessToken(_ http: HTTPTestClient) async throws -> String {
        let pkce = PKCE()
        let started = try await http.postForm(
            "/authorize-challenge",
            [
                "client_id": "pin-race-app", "scope": "openid offline_access", "code_challenge": pkce.challenge,
                "code_challenge_method": "S256", "username": "alice", "password": password,
            ])
        try #require(started.status == 200, "\(started.text)")
        let code = try started.json(AuthorizationChallengeResponse.self).authorizationCode
        let tokens = try await http.postForm(
            "/token",
            ["grant_type": "authorization_code", "code": code, "client_id": "pin-race-app", "code_verifier": pkce.verifier])
        try #require(tokens.status == 200, "\(tokens.text)")
        return try tokens.json(TokenResponse.self).accessToken
    }

    static func register(_ http: HTTPTestClient, key: Curve25519.Signing.PrivateKey) async throws -> String {
        let token = try await accessToken(http)
        let body = try JSONSerialization.data(withJSONObject: [
            "public_key": Base64URL.encode(key.publicKey.rawRepresentation), "label": "race",
        ])
        let created = try await http.post(
            "/api/pin/registrations", body: body, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"])
        try #require(created.status == 201, "\(created.text)")
        return try created.json(PINRegistration.self).id
    }

    /// Outcome of one race: unlocks, and wrong PINs whose signature a process checked
    /// (`invalid_pin`, and the `pin_registration_revoked` of the guess that used the last attempt).
    static func race(_ clients: [HTTPTestClient], registration: String, keys: [Curve25519.Signing.PrivateKey]) async throws
        -> (unlocked: Int, wrongChecked: Int, answers: [String])
    {
        var nonces: [String] = []
        for index in keys.indices {
            let body = try JSONSerialization.data(withJSONObject: ["client_id": "pin-race-app", "registration_id": registration])
            // A nonce from one process, redeemed at the other.
            let answer = try await clients[(index + 1) % 2].post(
                "/api/pin/nonce", body: body, headers: ["Content-Type": "application/json"])
            try #require(answer.status == 200, "\(answer.text)")
            nonces.append(try answer.json(PINNonce.self).nonce)
        }
        let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for (index, key) in keys.enumerated() {
                let nonce = nonces[index]
                let signature = try key.signature(for: PINUnlock.signingInput(registrationID: registration, nonce: nonce))
                group.addTask {
                    try await clients[index % 2].postForm(
                        "/token",
                        [
                            "grant_type": PINUnlock.grantType, "client_id": "pin-race-app", "registration_id": registration,
                            "nonce": nonce, "signature": Base64URL.encode(signature),
                        ])
                }
            }
            return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
        }
        var unlocked = 0
        var wrongChecked = 0
        for answer in answers {
            if answer.status == 200 {
                unlocked += 1
                continue
            }
            let error = try answer.json(APIError.self)
            if error.code == .invalidPIN { wrongChecked += 1 }
            // The guess that used the last attempt, checked and wrong.
            if error.code == .pinRegistrationRevoked, error.errorDescription?.hasPrefix("3 wrong PINs in a row") == true {
                wrongChecked += 1
            }
        }
        return (unlocked, wrongChecked, answers.map { "\($0.status) \($0.text)" })
    }

    @Test("20 unlocks at once across two processes: exactly 3 wrong PINs are checked; a right PIN among them unlocks only if it held one of the 3 attempts")
    func raceAcrossProcesses() async throws {
        let sandbox = try await StoreSandbox.make(.postgres)
        let temp = try TempDirectory("pin-race")
        defer { temp.remove() }
        let seed = temp.url.appendingPathComponent("seed.yaml")
        try Data(
            """
            clients:
              - client_id: pin-race-app
                redirect_uris: [com.example.pinrace:/cb]
                token_endpoint_auth_method: none
                first_party: true
            users:
              - username: alice
                email: alice@example.com
                password: \(Self.password)
                email_verified: true
            """.utf8
        ).write(to: seed)
        let arguments = [
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--config", seed.path, "--log-level", "error",
            "--challenge", "sign_in=off",
        ]
        try await TwoServeProcesses.run(arguments, on: sandbox) { clients in
            // 20 wrong PINs.
            let device = Curve25519.Signing.PrivateKey()
            let registration = try await Self.register(clients[0], key: device)
            let wrong = (0..<20).map { _ in Curve25519.Signing.PrivateKey() }
            let allWrong = try await Self.race(clients, registration: registration, keys: wrong)
            #expect(allWrong.unlocked == 0)
            #expect(allWrong.wrongChecked == 3, "\(allWrong.wrongChecked) wrong PINs were checked; the policy allows 3: \(allWrong.answers)")

            // The right PIN sent last among 19 wrong ones.
            let other = Curve25519.Signing.PrivateKey()
            let secondRegistration = try await Self.register(clients[1], key: other)
            let mixed = try await Self.race(
                clients, registration: secondRegistration, keys: (0..<19).map { _ in Curve25519.Signing.PrivateKey() } + [other])
            #expect(mixed.unlocked <= 1)
            if mixed.unlocked == 0 {
                #expect(mixed.wrongChecked == 3, "\(mixed.wrongChecked) wrong PINs were checked: \(mixed.answers)")
            } else {
                // It held one of the first 3 attempts; its success started the count over.
                #expect(mixed.wrongChecked <= 2 + 3, "\(mixed.wrongChecked) wrong PINs were checked: \(mixed.answers)")
            }
        }
        await sandbox.dispose()
    }
}
