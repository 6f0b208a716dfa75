import Crypto
import Foundation
import Sesame
import SesameProtocol
import Testing

/// Issue #28 §3: a copy of the software passkey's store must not sign in without its PIN, and
/// must not let the PIN be found offline. The key is sealed under the PIN (scrypt XOR, no
/// digest, tag or public key stored); every PIN opens it to a valid-looking key, and only the
/// right one makes a signature the registered public key accepts.
@Suite("Software passkey sealed under its PIN")
struct SoftwarePasskeySealingTests {
    static let origin = "https://id.example.com"
    static let cheap = PINKeyDerivation(logN: 8)

    static func creation() -> CredentialCreationOptionsJSON {
        CredentialCreationOptionsJSON(
            rp: RelyingPartyEntity(id: "id.example.com", name: "Example"),
            user: UserEntityJSON(id: Base64URL.encode(Data("user-1".utf8)), name: "alice@example.com", displayName: "Alice"),
            challenge: Base64URL.encode(Data(SecureRandom.bytes(32))), pubKeyCredParams: [CredentialParameters(alg: -7)],
            timeout: nil, excludeCredentials: nil,
            authenticatorSelection: AuthenticatorSelection(residentKey: "required", requireResidentKey: true, userVerification: "required"),
            attestation: "none")
    }

    static func request(userVerification: String = "required") -> CredentialRequestOptionsJSON {
        CredentialRequestOptionsJSON(
            challenge: Base64URL.encode(Data(SecureRandom.bytes(32))), timeout: nil, rpId: "id.example.com", allowCredentials: [],
            userVerification: userVerification)
    }

    /// The registered public key, from the attestation object's credential data.
    static func publicKey(_ registration: RegistrationResponseJSON) throws -> P256.Signing.PublicKey {
        let attestation = try AttestationObject(try #require(Base64URL.decode(registration.response.attestationObject)))
        guard case .es256(let x, let y) = try #require(attestation.authenticatorData.attestedCredential).publicKey else {
            throw TestFailure("not an ES256 key")
        }
        return try P256.Signing.PublicKey(rawRepresentation: x + y)
    }

    /// WebAuthn §7.2 step 21: the signature over authenticatorData ‖ SHA-256(clientDataJSON).
    static func verifies(_ assertion: AuthenticationResponseJSON, with key: P256.Signing.PublicKey) throws -> Bool {
        let authData = try #require(Base64URL.decode(assertion.response.authenticatorData))
        let clientData = try #require(Base64URL.decode(assertion.response.clientDataJSON))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: try #require(Base64URL.decode(assertion.response.signature)))
        return key.isValidSignature(signature, for: authData + Data(SHA256.hash(data: clientData)))
    }

    static func userVerified(_ assertion: AuthenticationResponseJSON) throws -> Bool {
        let data = try AuthenticatorData(try #require(Base64URL.decode(assertion.response.authenticatorData)))
        return data.flags.contains(.userVerified)
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("the right PIN signs with UV; 40 wrong PINs each open a different valid key whose signature the public key refuses")
    func onlyTheRightPINSigns() async throws {
        let store = InMemoryCredentialStore()
        let owner = SoftwarePasskeyAuthenticator(store: store, origin: Self.origin, pin: { _ in "2468" }, kdf: Self.cheap)
        let registration = try await owner.register(Self.creation())
        let publicKey = try Self.publicKey(registration)

        let assertion = try await owner.authenticate(Self.request())
        #expect(try Self.verifies(assertion, with: publicKey))
        #expect(try Self.userVerified(assertion))

        var signers = Set<Data>()
        for guess in 0..<40 {
            let pin = String(format: "%04d", 1000 + guess)
            let attacker = SoftwarePasskeyAuthenticator(store: store, origin: Self.origin, pin: { _ in pin }, kdf: Self.cheap)
            let forged = try await attacker.authenticate(Self.request())
            #expect(try !Self.verifies(forged, with: publicKey), "PIN \(pin) opened the right key")
            signers.insert(try #require(Base64URL.decode(forged.response.signature)))
        }
        #expect(signers.count == 40)
    }

    @Test("the store holds no PIN digest and no usable key: the raw bytes as a key fail, and without the PIN no UV is possible")
    func aCopiedStoreIsUseless() async throws {
        let store = InMemoryCredentialStore()
        // An earlier version's PBKDF2 digest of the PIN: an offline oracle, deleted at the first save.
        try await store.save(Data(#"{"salt":"c2FsdA==","digest":"ZGlnZXN0","failures":0}"#.utf8), for: "sesame.passkeys.pin")
        let owner = SoftwarePasskeyAuthenticator(store: store, origin: Self.origin, pin: { _ in "2468" }, kdf: Self.cheap)
        let registration = try await owner.register(Self.creation())
        let publicKey = try Self.publicKey(registration)
        #expect(try await store.load("sesame.passkeys.pin") == nil)
        #expect(try await store.keys() == ["sesame.passkeys"])

        let stored = try #require(try await store.load("sesame.passkeys"))
        let records = try #require(try JSONSerialization.jsonObject(with: stored) as? [[String: Any]])
        let record = try #require(records.first)
        #expect(Set(record.keys) == ["id", "rpID", "userHandle", "userName", "privateKey", "signCount", "salt", "kdf"])
        // The sealed bytes used as the key itself sign with a key the server does not know.
        let sealedText = try #require(record["privateKey"] as? String)
        let sealed = try #require(Base64URL.decode(sealedText))
        let taken = try P256.Signing.PrivateKey(rawRepresentation: sealed)
        #expect(taken.publicKey.rawRepresentation != publicKey.rawRepresentation)

        // A copy of the store without the PIN cannot claim user verification, nor sign at all.
        let copy = InMemoryCredentialStore()
        try await copy.save(stored, for: "sesame.passkeys")
        let noPIN = SoftwarePasskeyAuthenticator(store: copy, origin: Self.origin)
        for userVerification in ["required", "preferred", "discouraged"] {
            await #expect(throws: PasskeyAuthenticatorError.userVerificationUnavailable) {
                _ = try await noPIN.authenticate(Self.request(userVerification: userVerification))
            }
        }
    }

    @Test("a new passkey's PIN is at least 4 characters; without a PIN prompt a key is kept with presence only")
    func pinRulesAndPresenceOnly() async throws {
        let short = SoftwarePasskeyAuthenticator(store: InMemoryCredentialStore(), origin: Self.origin, pin: { _ in "123" }, kdf: Self.cheap)
        await #expect(throws: PasskeyAuthenticatorError.pinTooShort(minimum: 4)) { _ = try await short.register(Self.creation()) }

        let store = InMemoryCredentialStore()
        let plain = SoftwarePasskeyAuthenticator(store: store, origin: Self.origin)
        await #expect(throws: PasskeyAuthenticatorError.userVerificationUnavailable) { _ = try await plain.register(Self.creation()) }
        var options = Self.creation()
        options.authenticatorSelection?.userVerification = "discouraged"
        let registration = try await plain.register(options)
        let assertion = try await plain.authenticate(Self.request(userVerification: "discouraged"))
        #expect(try Self.verifies(assertion, with: try Self.publicKey(registration)))
        #expect(try !Self.userVerified(assertion))
    }
}
