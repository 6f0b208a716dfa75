import Crypto
import Foundation
import _CryptoExtras
import Sesame
import SesameProtocol
import SesameServer
import TestSupport
import Testing

/// WebAuthn Level 3 §7.2 at `/authorize-challenge`, one rule at a time: each broken assertion is
/// refused with its own `ceremony_step` and error code, and no code is issued.
// Serialized: each case starts a server of its own, and 17 of them at once on two cores slowed
// the whole CI run past other tests' timeouts.
@Suite("Passkeys: every step of the authentication ceremony", .serialized)
struct PasskeyAssertionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var step: String
        var code: APIErrorCode
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        .init(name: "type webauthn.create", step: "7.2 step 10 (type)", code: .passkeyInvalid),
        .init(name: "another origin", step: "7.2 step 12 (origin)", code: .passkeyInvalid),
        .init(name: "another RP ID", step: "7.2 step 15 (rp_id_hash)", code: .passkeyInvalid),
        .init(name: "UP missing", step: "7.2 step 16 (user_present)", code: .passkeyInvalid),
        .init(name: "UV missing for a first factor", step: "7.2 step 17 (user_verified)", code: .passkeyInvalid),
        .init(name: "BE changed", step: "7.2 step 19 (backup_eligibility)", code: .passkeyInvalid),
        .init(name: "tampered signature", step: "7.2 step 21 (signature)", code: .passkeyInvalid),
        .init(name: "counter regression", step: "7.2 step 22 (sign_count)", code: .passkeyCounterRegression),
        .init(name: "unknown credential", step: "7.2 step 6 (unknown_credential)", code: .passkeyNotRecognized),
        .init(name: "another user's credential", step: "7.2 step 6 (other_users_credential)", code: .passkeyNotRecognized),
        .init(name: "not in allowCredentials", step: "7.2 step 5 (not_allowed)", code: .passkeyNotRecognized),
        .init(name: "malformed authenticator data", step: "7.2 step 7 (malformed_authenticator_data)", code: .passkeyInvalid),
        .init(name: "challenge used already", step: "7.2 step 11 (challenge)", code: .passkeyChallengeInvalid),
        .init(name: "challenge of another auth_session", step: "7.2 step 11 (challenge)", code: .passkeyChallengeInvalid),
    ]

    @Test("sign-in: each rule of §7.2 broken is refused with its own step, and no code is issued", arguments: cases)
    func assertionSteps(_ broken: Case) async throws {
        try await withServer { server in
            let fixture = try await PasskeyFixture.start(server)
            try await fixture.registerHonestly()
            // A good sign-in first: the counter is at 1.
            let good = try await fixture.startSignIn()
            let (goodData, goodStatus) = try await fixture.finish(good, try fixture.assertion(good, signCount: 1))
            #expect(goodStatus == 200, "\(String(decoding: goodData, as: UTF8.self))")

            var started = try await fixture.startSignIn(username: broken.name == "not in allowCredentials" ? fixture.user.username : nil)
            var assertion = try fixture.assertion(started, signCount: 2)
            switch broken.name {
            case "type webauthn.create": assertion = try fixture.assertion(started, signCount: 2) { $0.clientDataType = WebAuthn.createType }
            case "another origin": assertion = try fixture.assertion(started, signCount: 2) { $0.origin = "https://evil.example" }
            case "another RP ID": assertion = try fixture.assertion(started, signCount: 2) { $0.rpID = "evil.example" }
            case "UP missing": assertion = try fixture.assertion(started, signCount: 2) { $0.flags = [.userVerified] }
            case "UV missing for a first factor": assertion = try fixture.assertion(started, signCount: 2) { $0.flags = [.userPresent] }
            case "BE changed":
                assertion = try fixture.assertion(started, signCount: 2) { $0.flags = [.userPresent, .userVerified, .backupEligible] }
            case "tampered signature":
                var signature = Base64URL.decode(assertion.response.signature)!
                signature[signature.count - 1] ^= 0x01
                assertion.response.signature = Base64URL.encode(signature)
            case "counter regression": assertion = try fixture.assertion(started, signCount: 1)
            case "unknown credential":
                let stranger = AuthenticatorResponseFactory(key: P256.Signing.PrivateKey(), credentialID: Data(SecureRandom.bytes(32)))
                assertion = try stranger.assertion(challenge: started.options.challenge, userHandle: fixture.userHandle, fixture.parameters())
            case "another user's credential":
                // Hopper's passkey, presented with Grace's user handle.
                let hopper = try await PasskeyFixture.start(server, username: "hopper")
                try await hopper.registerHonestly()
                assertion = try hopper.factory.assertion(
                    challenge: started.options.challenge, userHandle: fixture.userHandle, fixture.parameters { $0.signCount = 1 })
            case "not in allowCredentials":
                let second = AuthenticatorResponseFactory(key: P256.Signing.PrivateKey(), credentialID: Data(SecureRandom.bytes(32)))
                assertion = try second.assertion(challenge: started.options.challenge, userHandle: fixture.userHandle, fixture.parameters())
            case "malformed authenticator data":
                assertion.response.authenticatorData = Base64URL.encode(Data(repeating: 0, count: 20))
            case "challenge used already":
                assertion = try fixture.assertion(good, signCount: 2)
                started.authSession = good.authSession
            case "challenge of another auth_session":
                let other = try await fixture.startSignIn()
                assertion = try fixture.assertion(other, signCount: 2)
            default: Issue.record("no such case")
            }
            let (data, status) = try await fixture.finish(started, assertion)
            let error = try PasskeyFixture.error(data)
            #expect(status == broken.code.httpStatus, "\(error)")
            #expect(error.code == broken.code, "\(error)")
            #expect(error.ceremonyStep == broken.step, "\(error)")
            #expect(!String(decoding: data, as: UTF8.self).contains("authorization_code"))
            // The refusal is in the audit log with its reason.
            await server.running.flushAuditLog()
            let log = server.running.store
            let refused = try await log.auditRecords(AuditQuery(events: ["passkey.refused"]))
            #expect(refused.count == 1, "\(refused)")
        }
    }

    @Test("an expired challenge is refused (7.2 step 11)")
    func expiredChallenge() async throws {
        let clock = ManualClock()
        try await withServer(configure: { $0.now = { clock.now() } }) { server in
            let fixture = try await PasskeyFixture.start(server)
            try await fixture.registerHonestly()
            let started = try await fixture.startSignIn()
            clock.advance(by: PasskeyPolicy().challengeLifetime + 1)
            let (data, status) = try await fixture.finish(started, try fixture.assertion(started, signCount: 1))
            #expect(status == 400)
            #expect(try PasskeyFixture.error(data).ceremonyStep == "7.2 step 11 (challenge)")
        }
    }

    @Test("EdDSA and RS256 passkeys register (packed self attestation too) and sign in; a forged signature of each is refused", arguments: ["EdDSA", "RS256"])
    func otherAlgorithms(_ algorithm: String) async throws {
        try await withServer { server in
            var fixture = try await PasskeyFixture.start(server)
            let id = Data(SecureRandom.bytes(32))
            if algorithm == "EdDSA" {
                fixture.factory = AuthenticatorResponseFactory(key: Curve25519.Signing.PrivateKey(), credentialID: id)
            } else {
                let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
                let primitives = try key.publicKey.getKeyPrimitives()
                fixture.factory = AuthenticatorResponseFactory(
                    publicKey: .rs256(n: primitives.modulus, e: primitives.publicExponent), credentialID: id
                ) { try key.signature(for: $0, padding: .insecurePKCS1v1_5).rawRepresentation }
            }
            try await fixture.registerHonestly(attestation: .packedSelf)
            let started = try await fixture.startSignIn()
            let (data, status) = try await fixture.finish(started, try fixture.assertion(started, signCount: 1))
            #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")

            let again = try await fixture.startSignIn()
            var forged = try fixture.assertion(again, signCount: 2)
            var signature = Base64URL.decode(forged.response.signature)!
            signature[0] ^= 0x80
            forged.response.signature = Base64URL.encode(signature)
            let (refused, refusedStatus) = try await fixture.finish(again, forged)
            #expect(refusedStatus == 400)
            #expect(try PasskeyFixture.error(refused).ceremonyStep == "7.2 step 21 (signature)")
        }
    }

    @Test("packed self attestation verifies and is recorded; the options offer ES256, EdDSA and RS256")
    func packedSelfAttestation() async throws {
        try await withServer { server in
            let fixture = try await PasskeyFixture.start(server)
            let passkey = try await fixture.registerHonestly(attestation: .packedSelf)
            #expect(passkey.keyKind == "swk")
            let options = try await fixture.creationOptions()
            #expect(options.pubKeyCredParams.map(\.alg) == [-7, -8, -257])
            #expect(options.excludeCredentials?.map(\.id) == [passkey.id])
            #expect(options.authenticatorSelection?.residentKey == "required")
            #expect(options.user.id == Base64URL.encode(Data(fixture.user.sub.utf8)))
        }
    }
}
