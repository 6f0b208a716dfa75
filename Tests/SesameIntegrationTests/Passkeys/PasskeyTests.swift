import Crypto
import Foundation
import Sesame
import SesameProtocol
import SesameServer
import Synchronization
import Testing

/// Passkeys (docs/passkeys.md) against the real server over loopback: the SDK with its software
/// authenticator end to end, then WebAuthn Level 3 §7.1 and §7.2 one rule at a time, each broken
/// answer refused with its own `ceremony_step` and nothing stored or issued.
// Serialized for the same reason as the assertion steps: a server per case.
@Suite("Passkeys: registration, sign-in, step-up and every ceremony step", .serialized)
struct PasskeyTests {
    static func authenticator(_ server: IntegrationServer, verified: Bool = true) -> SoftwarePasskeyAuthenticator {
        let issuer = server.issuer
        return SoftwarePasskeyAuthenticator(
            store: InMemoryCredentialStore(), origin: "\(issuer.scheme!)://\(issuer.host!):\(issuer.port!)",
            pin: verified ? { @Sendable _ in "2468" } : nil, kdf: PINKeyDerivation(logN: 8))
    }

    @Test("the SDK registers a passkey, lists and renames it, signs in with it alone (acr mfa, amr swk user pin mfa), and removes it")
    func endToEnd() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            let authenticator = Self.authenticator(server)
            let passkey = try await client.passkeys.register(using: authenticator, name: "Work laptop")
            #expect(passkey.name == "Work laptop" && passkey.keyKind == "swk" && !passkey.backupEligible)
            #expect(try await client.passkeys.list().map(\.id) == [passkey.id])
            #expect(try await client.passkeys.rename(id: passkey.id, to: "Laptop").name == "Laptop")
            // A second registration from the same authenticator is excluded (excludeCredentials).
            let again = await #expect(throws: SesameError.self) { _ = try await client.passkeys.register(using: authenticator) }
            guard case .passkeyUnavailable(.alreadyRegistered)? = again?.reason else {
                Issue.record("expected alreadyRegistered, got \(String(describing: again))")
                return
            }

            // Another app instance signs in with the passkey and no username (discoverable).
            let second = server.sdk()
            let account = try await second.passkeys.signIn(using: authenticator)
            #expect(account.subject == user.sub)
            let claims = try await second.idTokenClaims()
            #expect(claims.acr == AuthenticationContextClass.multiFactor)
            #expect(claims.amr == ["swk", "user", "pin", "mfa"])
            #expect(try await second.userInfo().sub == user.sub)
            // With a username it works too; the counter moved on.
            _ = try await server.sdk().passkeys.signIn(username: user.username, using: authenticator)
            #expect(try await authenticator.credentials().first?.signCount == 2)
            #expect(try await client.passkeys.list().first?.lastUsedAt != nil)

            // The passkey is not the only way in (a password is set): it can be removed, and then it no longer signs in.
            try await client.passkeys.remove(id: passkey.id)
            #expect(try await client.passkeys.list().isEmpty)
            let refused = await #expect(throws: SesameError.self) { _ = try await server.sdk().passkeys.signIn(using: authenticator) }
            #expect(refused?.apiError?.code == .passkeyNotRecognized, "\(String(describing: refused))")
        }
    }

    @Test("a passkey without user verification is a second factor: step-up adds swk and user to pwd; as a first factor it is refused (7.2 step 17)")
    func stepUp() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            let presenceOnly = Self.authenticator(server, verified: false)
            _ = try await client.passkeys.register(using: presenceOnly)
            let challenge = try await client.stepUp()
            #expect(challenge.methods.contains(.passkey))
            _ = try await challenge.verify(with: presenceOnly)
            let claims = try await client.idTokenClaims()
            #expect(claims.acr == AuthenticationContextClass.multiFactor)
            #expect(claims.amr == ["pwd", "swk", "user", "mfa"])

            // The options of a first factor require UV: the software authenticator without a local check says so.
            let error = await #expect(throws: SesameError.self) { _ = try await server.sdk().passkeys.signIn(using: presenceOnly) }
            guard case .passkeyUnavailable(.userVerificationUnavailable)? = error?.reason else {
                Issue.record("expected userVerificationUnavailable, got \(String(describing: error))")
                return
            }
            // And the server refuses a UP-only assertion as a first factor.
            let fixture = try await PasskeyFixture.start(server, username: "hopper")
            try await fixture.registerHonestly()
            let started = try await fixture.startSignIn()
            let (data, status) = try await fixture.finish(
                started, try fixture.assertion(started, signCount: 1) { $0.flags = [.userPresent] })
            #expect(status == 400)
            #expect(try PasskeyFixture.error(data).ceremonyStep == "7.2 step 17 (user_verified)")
        }
    }

    /// One broken registration: what to change, and the step and code expected.
    struct RegistrationCase: Sendable, CustomTestStringConvertible {
        var name: String
        var step: String
        var code: APIErrorCode
        var testDescription: String { name }
    }

    static let registrationCases: [RegistrationCase] = [
        .init(name: "type webauthn.get", step: "7.1 step 7 (type)", code: .passkeyInvalid),
        .init(name: "another origin", step: "7.1 step 9 (origin)", code: .passkeyInvalid),
        .init(name: "cross-origin frame", step: "7.1 step 10 (cross_origin)", code: .passkeyInvalid),
        .init(name: "another RP ID", step: "7.1 step 14 (rp_id_hash)", code: .passkeyInvalid),
        .init(name: "UP missing", step: "7.1 step 15 (user_present)", code: .passkeyInvalid),
        .init(name: "BS without BE", step: "7.1 step 17 (backup_state)", code: .passkeyInvalid),
        .init(name: "malformed CBOR", step: "7.1 step 13 (malformed_attestation)", code: .passkeyInvalid),
        .init(name: "unsupported algorithm (ES384)", step: "7.1 step 20 (algorithm)", code: .passkeyInvalid),
        .init(name: "packed self attestation, tampered", step: "7.1 step 22 (attestation)", code: .passkeyInvalid),
        .init(name: "challenge used already", step: "7.1 step 8 (challenge)", code: .passkeyChallengeInvalid),
        .init(name: "credential registered already", step: "7.1 step 26 (already_registered)", code: .passkeyAlreadyRegistered),
    ]

    @Test("registration: each rule of §7.1 broken is refused with its own step, and nothing is stored", arguments: registrationCases)
    func registrationSteps(_ broken: RegistrationCase) async throws {
        try await withServer { server in
            let fixture = try await PasskeyFixture.start(server)
            var expectedStored = 0
            var options = try await fixture.creationOptions()
            var parameters = fixture.parameters()
            var credential: RegistrationResponseJSON
            switch broken.name {
            case "type webauthn.get": parameters.clientDataType = WebAuthn.getType
            case "another origin": parameters.origin = "https://evil.example"
            case "cross-origin frame": parameters.crossOrigin = true
            case "another RP ID": parameters.rpID = "evil.example"
            case "UP missing": parameters.flags = [.userVerified]
            case "BS without BE": parameters.flags = [.userPresent, .userVerified, .backedUp]
            case "challenge used already", "credential registered already":
                try await fixture.registerHonestly()
                expectedStored = 1
                if broken.name == "challenge used already" {
                    // Replay the first answer's challenge with a new key.
                    let first = try await fixture.creationOptions()
                    let other = AuthenticatorResponseFactory(key: P256.Signing.PrivateKey(), credentialID: Data(SecureRandom.bytes(32)))
                    _ = try await fixture.register(try other.registration(challenge: first.challenge, parameters))
                    expectedStored = 2
                    options.challenge = first.challenge
                } else {
                    options = try await fixture.creationOptions()
                }
            default: break
            }
            credential = try fixture.factory.registration(
                challenge: options.challenge, parameters,
                attestation: broken.name.hasPrefix("packed") ? .packedSelf : .none)
            switch broken.name {
            case "malformed CBOR":
                credential.response.attestationObject = Base64URL.encode(Data([0xa3, 0x63, 0x66, 0x6d, 0x74, 0xff]))
            case "unsupported algorithm (ES384)":
                credential.response.attestationObject = Base64URL.encode(
                    try Self.attestation(withAlgorithm: -35, credentialID: Base64URL.decode(credential.rawId)!, fixture: fixture))
            case "packed self attestation, tampered":
                credential.response.clientDataJSON = Base64URL.encode(
                    CollectedClientData(type: WebAuthn.createType, challenge: options.challenge, origin: fixture.origin, crossOrigin: false)
                        .serialized + Data(" ".utf8))
            default: break
            }
            let (data, status) = try await fixture.register(credential)
            let error = try PasskeyFixture.error(data)
            #expect(status == broken.code.httpStatus, "\(error)")
            #expect(error.code == broken.code)
            #expect(error.ceremonyStep == broken.step, "\(error)")
            let (list, _) = try await fixture.send("GET", "/api/passkeys", json: nil)
            #expect(try JSONDecoder().decode(PasskeyList.self, from: list).passkeys.count == expectedStored)
        }
    }

    /// An attestation object whose credential key says COSE algorithm `alg` (EC2 on P-256 members).
    static func attestation(withAlgorithm alg: Int64, credentialID: Data, fixture: PasskeyFixture) throws -> Data {
        guard case .es256(let x, let y) = fixture.factory.publicKey else { throw FixtureError("not P-256") }
        let key = CBOR.map([
            (.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(UInt64(-1 - alg))), (.negative(0), .unsigned(1)),
            (.negative(1), .bytes(x)), (.negative(2), .bytes(y)),
        ])
        var authData = Data(SHA256.hash(data: Data(fixture.rpID.utf8)))
        authData.append(0x45)
        authData.append(contentsOf: [0, 0, 0, 0])
        authData.append(WebAuthn.softwareAuthenticatorAAGUID)
        authData.append(contentsOf: [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)])
        authData.append(credentialID)
        authData.append(CBOREncoder.encode(key))
        return AttestationObject.encode(format: "none", statement: .map([]), authenticatorData: authData)
    }
}

/// ``SesameClient/login(withRequest:sheet:)`` on Linux with ``SoftwareSignInSheet``: the passkey
/// when the authenticator holds one, else the password; Sign in with Apple is said to be
/// unavailable here.
@Suite("Combined sign-in sheet (Linux stand-in)")
struct CombinedSignInTests {
    @Test("one call: a held passkey is used; without one the password; asking only for Sign in with Apple names what is available")
    func combined() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = server.sdk()
            _ = try await passwordLogin(client, user)
            let authenticator = PasskeyTests.authenticator(server)
            let prompted = Counter()
            let prompt: SoftwareSignInSheet.PasswordPrompt = { _ in
                prompted.increment()
                return (user.username, user.password)
            }
            let empty = SoftwareSignInSheet(passkeys: PasskeyTests.authenticator(server), passwordPrompt: prompt)
            #expect(await empty.availableMethods() == [.password])
            guard case .signedIn(let byPassword) = try await server.sdk().login(withRequest: .init(), sheet: empty) else {
                Issue.record("expected a password sign-in")
                return
            }
            #expect(byPassword.subject == user.sub && prompted.value == 1)

            _ = try await client.passkeys.register(using: authenticator)
            let sheet = SoftwareSignInSheet(passkeys: authenticator, passwordPrompt: prompt)
            #expect(await sheet.availableMethods() == [.password, .passkey])
            let second = server.sdk()
            guard case .signedIn(let byPasskey) = try await second.login(withRequest: .init(), sheet: sheet) else {
                Issue.record("expected a passkey sign-in")
                return
            }
            #expect(byPasskey.subject == user.sub && prompted.value == 1, "no password asked")
            #expect(try await second.idTokenClaims().amr?.contains("swk") == true)

            let error = await #expect(throws: SesameError.self) {
                _ = try await server.sdk().login(withRequest: .init(methods: [.signInWithApple]), sheet: sheet)
            }
            #expect(error?.description.contains("available: passkey, password") == true, "\(String(describing: error))")
        }
    }
}

/// A thread-safe count for closures the tests hand out.
final class Counter: Sendable {
    private let state = Mutex(0)
    func increment() { state.withLock { $0 += 1 } }
    var value: Int { state.withLock { $0 } }
}
