import Crypto
import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Wrong signatures of a known passkey are counted like PINs (docs/passkeys.md, "Wrong
/// signatures"; issue #28 §3, the server half): a software passkey sealed under a PIN answers a
/// wrong PIN with a signature made by a wrong key. Before the counter, every such assertion had
/// its signature checked, without limit.
@Suite("Passkeys: wrong signatures are counted and lock the credential")
struct PasskeyLockTests {
    struct Passkeyholder {
        let server: TestServer
        let flow: ChallengeFlow
        let accessToken: String
        let userID: String
        let credentialID = Data(SecureRandom.bytes(32))
        let key = P256.Signing.PrivateKey()

        var factory: AuthenticatorResponseFactory { AuthenticatorResponseFactory(key: key, credentialID: credentialID) }
        /// The same credential id with another key: what a wrong PIN opens.
        var wrongFactory: AuthenticatorResponseFactory {
            AuthenticatorResponseFactory(key: P256.Signing.PrivateKey(), credentialID: credentialID)
        }

        var parameters: AuthenticatorResponseFactory.Parameters {
            let issuer = server.baseURL
            let port = issuer.port.map { ":\($0)" } ?? ""
            return .init(origin: "\(issuer.scheme ?? "http")://\(issuer.host ?? "")\(port)", rpID: issuer.host ?? "")
        }

        var auth: [String: String] { ["Authorization": "Bearer \(accessToken)", "Content-Type": "application/json"] }

        static func make(_ server: TestServer) async throws -> Passkeyholder {
            let flow = ChallengeFlow(server)
            let tokens = try await flow.passwordTokens()
            let user = try #require(try await server.store.user(login: Fixtures.username))
            return Passkeyholder(server: server, flow: flow, accessToken: tokens.accessToken, userID: user.id)
        }

        /// Registers the passkey through the account API.
        func register() async throws {
            let options = try await flow.http.post("/api/passkeys/options", body: Data("{}".utf8), headers: auth)
            try #require(options.status == 200, "\(options.text)")
            let challenge = try options.json(CredentialCreationOptionsJSON.self).challenge
            let registration = PasskeyRegistration(
                credential: try factory.registration(challenge: challenge, parameters, attestation: .none), name: "cli")
            let created = try await flow.http.post("/api/passkeys", body: try JSONEncoder().encode(registration), headers: auth)
            try #require(created.status == 201, "\(created.text)")
        }

        /// A passkey sign-in at `/authorize-challenge` up to its options: the auth session and challenge.
        func start() async throws -> (session: String, challenge: String) {
            let pkce = PKCE()
            let started = try await flow.http.postForm(
                "/authorize-challenge",
                [
                    "client_id": flow.clientID, "scope": "openid", "code_challenge": pkce.challenge,
                    "code_challenge_method": "S256", "challenge_type": "passkey",
                ])
            let error = try started.json(APIError.self)
            let session = try #require(error.authSession, "\(started.text)")
            return (session, try #require(error.passkeyOptions?.challenge))
        }

        func finish(
            _ started: (session: String, challenge: String), with factory: AuthenticatorResponseFactory,
            origin: String? = nil
        ) async throws -> TestResponse {
            var parameters = parameters
            if let origin { parameters.origin = origin }
            let assertion = try factory.assertion(challenge: started.challenge, userHandle: Data(userID.utf8), parameters)
            return try await flow.http.postForm(
                "/authorize-challenge",
                ["auth_session": started.session, "passkey_assertion": String(decoding: try JSONEncoder().encode(assertion), as: UTF8.self)])
        }
    }

    @Test(
        "20 wrong signatures at once: exactly 5 are checked, the passkey is locked once and audited; the right one afterwards is refused until the passkey is removed and added again",
        arguments: StoreBackend.available)
    func lockAfterFiveWrongSignatures(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            server.clock.freeze()
            let holder = try await Passkeyholder.make(server)
            try await holder.register()
            var started: [(session: String, challenge: String)] = []
            for _ in 0..<20 { started.append(try await holder.start()) }
            let wrong = holder.wrongFactory
            let pending = started
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for attempt in pending { group.addTask { try await holder.finish(attempt, with: wrong) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let errors = try answers.map { try $0.json(APIError.self) }
            #expect(answers.allSatisfy { $0.status == 400 })
            let checked = errors.filter { $0.ceremonyStep == "7.2 step 21 (signature)" || $0.ceremonyStep == "7.2 step 21 (locked)" }
            #expect(checked.count == 5, "\(checked.count) signatures were checked; the limit is 5")
            #expect(
                errors.filter { $0.code == .passkeyInvalid }.compactMap(\.remainingAttempts).sorted() == [1, 2, 3, 4],
                "each wrong signature but the last is told its own attempts left")
            #expect(errors.filter { $0.code == .passkeyLocked }.count == 16)
            #expect(errors.filter { $0.code == .passkeyLocked }.allSatisfy { $0.remainingAttempts == 0 })

            await server.running.flushAuditLog()
            let log = server.store
            let locks = try await log.auditRecords(AuditQuery(events: ["passkey.locked"]))
            #expect(locks.count == 1, "\(locks)")
            #expect(locks.first?.userID == holder.userID)
            #expect(locks.first?.detail["credential_id"] == Base64URL.encode(holder.credentialID))

            // The right key after the lock: refused before anything is verified.
            let right = try await holder.finish(try await holder.start(), with: holder.factory)
            let refused = try right.json(APIError.self)
            #expect(refused.code == .passkeyLocked && refused.errorCode == 2024, "\(right.text)")
            #expect(refused.ceremonyStep == "7.2 step 6 (locked)")
            let list = try await holder.flow.http.get("/api/passkeys", headers: holder.auth).json(PasskeyList.self)
            #expect(list.passkeys.first?.locked == true)

            // The user removes it and adds it again: it signs in.
            let id = Base64URL.encode(holder.credentialID)
            let removed = try await holder.flow.http.request("DELETE", "/api/passkeys/\(id)", headers: holder.auth)
            #expect(removed.status == 204, "\(removed.text)")
            try await holder.register()
            let signedIn = try await holder.finish(try await holder.start(), with: holder.factory)
            #expect(signedIn.status == 200, "\(signedIn.text)")
        }
    }

    @Test(
        "a right signature starts the count over, a refusal before the signature counts nothing, and the maximum is configurable",
        arguments: StoreBackend.available)
    func successResetsAndMaximumIsConfigurable(backend: StoreBackend) async throws {
        try await withTestServer(backend, configure: { $0.passkeys.maximumFailedAssertions = 2 }) { server in
            let holder = try await Passkeyholder.make(server)
            try await holder.register()
            let first = try await holder.finish(try await holder.start(), with: holder.wrongFactory)
            #expect(try first.json(APIError.self).remainingAttempts == 1, "\(first.text)")
            #expect(try await holder.finish(try await holder.start(), with: holder.factory).status == 200)
            // A wrong origin (§7.2 step 12) is refused before the signature: no guess, not counted.
            let origin = try await holder.finish(try await holder.start(), with: holder.wrongFactory, origin: "https://evil.example")
            #expect(try origin.json(APIError.self).ceremonyStep == "7.2 step 12 (origin)", "\(origin.text)")
            let again = try await holder.finish(try await holder.start(), with: holder.wrongFactory)
            #expect(try again.json(APIError.self).remainingAttempts == 1, "the count started over: \(again.text)")
            let last = try await holder.finish(try await holder.start(), with: holder.wrongFactory)
            #expect(try last.json(APIError.self).code == .passkeyLocked, "\(last.text)")
            let store = server.store
            let record = try await store.passkey(credentialID: Base64URL.encode(holder.credentialID))
            #expect(record?.failures == 2 && record?.lockedAt != nil)
        }
    }
}
