import Crypto
import Foundation
import SesameProtocol

/// A passkey authenticator in software (docs/passkeys.md): P-256 keys (ES256) kept in a
/// ``CredentialStore`` (the encrypted file store on Linux and in the CLI), discoverable, with a
/// signature counter. For Linux, the CLI and tests; apps on Apple platforms use the system's.
///
/// It is honest about what it is: its AAGUID says "Sesame software" (the server records the key
/// as `swk`) and it never claims to be backed up.
///
/// **User verification is the passkey PIN, and the PIN is the key** (issue #28 §3): with a
/// ``PINPrompt`` each new key is sealed under the PIN the user chooses (`PINSealing`:
/// `key XOR scrypt(PIN, salt)`, no digest, tag or public key stored), and every use unseals it
/// with the PIN typed then. A copy of the store gives an attacker no way to test a PIN offline:
/// a wrong PIN opens a different, equally valid-looking key whose signature the server refuses
/// and counts (docs/passkeys.md). UV is claimed only for a key the typed PIN opened. Without a
/// prompt keys are kept as they are and answers carry UP only: enough for a second factor,
/// refused as a first factor.
public actor SoftwarePasskeyAuthenticator: PasskeyAuthenticator {
    /// What the authenticator asks a PIN for.
    public enum PINRequest: Sendable, Equatable {
        /// A new passkey is being made for `userName` at `rpID`: choose the PIN that will seal it
        /// (at least ``minimumPINLength`` characters; ask twice on a screen).
        case newPasskey(rpID: String, userName: String)
        /// The passkey of `userName` at `rpID` is about to sign: its PIN unseals it.
        case unlock(rpID: String, userName: String)
    }

    /// Asks the user for the PIN (WebAuthn §6.2.3 user verification); throws to cancel.
    public typealias PINPrompt = @Sendable (PINRequest) async throws -> String

    /// The shortest passkey PIN accepted for a new passkey.
    public static let minimumPINLength = 4

    /// A passkey kept here (no private key material).
    public struct Credential: Sendable, Equatable {
        /// base64url credential id.
        public var id: String
        /// The relying party ID the passkey is bound to (the server's domain).
        public var rpID: String
        /// The account name (`user.name`) the passkey was registered for.
        public var userName: String
        /// The signature counter (WebAuthn §6.1.1), raised by one for each assertion.
        public var signCount: UInt32
    }

    struct Stored: Codable, Sendable {
        var id: String
        var rpID: String
        var userHandle: String
        var userName: String
        /// P-256 private key, raw, base64url: sealed under the PIN when ``salt`` is set
        /// (`PINSealing`), as it is otherwise.
        var privateKey: String
        var signCount: UInt32
        /// The PIN sealing's salt and scrypt cost; `nil` for a key kept without a PIN.
        var salt: String?
        var kdf: PINKeyDerivation?
    }

    /// The store key of the credentials (one entry, JSON).
    public static let storeKey = "sesame.passkeys"
    /// Where earlier versions kept a PBKDF2 digest of the passkey PIN: an offline oracle for
    /// the PIN, deleted at the first save.
    static let legacyPINDigestKey = "sesame.passkeys.pin"

    private let store: any CredentialStore
    private let origin: String
    private let pin: PINPrompt?
    private let kdf: PINKeyDerivation
    private let attestation: AuthenticatorResponseFactory.Attestation

    /// - Parameters:
    ///   - store: where the keys live (use an encrypted store).
    ///   - origin: the origin the client data names: the issuer's origin for a web-like client,
    ///     or an app origin (`ios:bundle-id:…`) the server lists.
    ///   - pin: asks for the passkey PIN, which seals new keys and unseals them for each use
    ///     (UV); `nil`: keys are kept without a PIN and UV is never set.
    ///   - kdf: the scrypt cost of a new key's sealing (the default needs 64 MiB).
    ///   - attestation: `none` (default) or `packed` self attestation.
    public init(
        store: any CredentialStore, origin: String, pin: PINPrompt? = nil, kdf: PINKeyDerivation = PINKeyDerivation(),
        attestation: AuthenticatorResponseFactory.Attestation = .none
    ) {
        self.store = store
        self.origin = origin
        self.pin = pin
        self.kdf = kdf
        self.attestation = attestation
    }

    /// The passkeys kept here, for `rpID` or all.
    public func credentials(rpID: String? = nil) async throws(PasskeyAuthenticatorError) -> [Credential] {
        try await load().filter { rpID == nil || $0.rpID == rpID }.map {
            Credential(id: $0.id, rpID: $0.rpID, userName: $0.userName, signCount: $0.signCount)
        }
    }

    /// Forgets a passkey (the server's record is removed separately).
    public func remove(id: String) async throws(PasskeyAuthenticatorError) {
        try await save(try await load().filter { $0.id != id })
    }

    /// Creates a P-256 passkey for the server's options (WebAuthn §5.1.3) and returns the
    /// registration response. With a ``PINPrompt`` the user chooses the PIN that seals the key (UV);
    /// a passkey this store already holds for the same account is replaced.
    ///
    /// - Throws: ``PasskeyAuthenticatorError/alreadyRegistered`` when a key in `excludeCredentials`
    ///   is here, ``PasskeyAuthenticatorError/unsupportedAlgorithm`` without ES256,
    ///   ``PasskeyAuthenticatorError/userVerificationUnavailable`` when UV is required but no prompt
    ///   is set, ``PasskeyAuthenticatorError/pinTooShort(minimum:)`` for a short PIN, and
    ///   ``PasskeyAuthenticatorError/cancelled`` when the prompt throws.
    public func register(_ options: CredentialCreationOptionsJSON) async throws(PasskeyAuthenticatorError)
        -> RegistrationResponseJSON
    {
        try checkRelyingParty(options.rp.id)
        guard options.pubKeyCredParams.contains(where: { $0.alg == COSEKey.Algorithm.es256.rawValue }) else {
            throw .unsupportedAlgorithm
        }
        var stored = try await load()
        let excluded = Set((options.excludeCredentials ?? []).map(\.id))
        if stored.contains(where: { excluded.contains($0.id) }) { throw .alreadyRegistered }
        let key = P256.Signing.PrivateKey()
        let sealing = try await seal(
            key, required: options.authenticatorSelection?.userVerification == "required",
            for: .newPasskey(rpID: options.rp.id, userName: options.user.name))
        let verified = sealing != nil
        let factory = AuthenticatorResponseFactory(key: key, credentialID: Data(SecureRandom.bytes(32)))
        let response: RegistrationResponseJSON
        do {
            response = try factory.registration(
                challenge: options.challenge, parameters(rpID: options.rp.id, verified: verified, signCount: 0),
                attestation: attestation)
        } catch {
            throw .storage("signing failed: \(error)")
        }
        // A newer registration for the same account replaces the older one here.
        stored.removeAll { $0.rpID == options.rp.id && $0.userHandle == options.user.id }
        stored.append(
            Stored(
                id: response.id, rpID: options.rp.id, userHandle: options.user.id, userName: options.user.name,
                privateKey: sealing?.sealed ?? Base64URL.encode(key.rawRepresentation), signCount: 0, salt: sealing?.salt,
                kdf: sealing == nil ? nil : kdf))
        try await save(stored)
        return response
    }

    /// Signs the server's challenge with the first passkey here for its RP ID (and, when the options
    /// list some, one of `allowCredentials`), WebAuthn §5.1.4. A PIN-sealed key asks the prompt for
    /// its PIN and claims UV; the signature counter is saved before the answer is returned.
    ///
    /// - Throws: ``PasskeyAuthenticatorError/noCredentials`` when no passkey matches,
    ///   ``PasskeyAuthenticatorError/userVerificationUnavailable`` when UV is required but the key
    ///   has no PIN, and ``PasskeyAuthenticatorError/cancelled`` when the prompt throws.
    public func authenticate(_ options: CredentialRequestOptionsJSON) async throws(PasskeyAuthenticatorError)
        -> AuthenticationResponseJSON
    {
        try checkRelyingParty(options.rpId)
        var stored = try await load()
        let allowed = Set(options.allowCredentials.map(\.id))
        guard
            let index = stored.firstIndex(where: {
                $0.rpID == options.rpId && (allowed.isEmpty || allowed.contains($0.id))
            })
        else { throw .noCredentials }
        var credential = stored[index]
        let (key, verified) = try await unseal(credential, required: options.userVerification == "required")
        guard let id = Base64URL.decode(credential.id) else { throw .storage("the passkey's id is unreadable") }
        credential.signCount &+= 1
        stored[index] = credential
        // The counter is saved before the answer leaves: a crash cannot reuse a value.
        try await save(stored)
        do {
            return try AuthenticatorResponseFactory(key: key, credentialID: id).assertion(
                challenge: options.challenge, userHandle: Base64URL.decode(credential.userHandle),
                parameters(rpID: options.rpId, verified: verified, signCount: credential.signCount))
        } catch {
            throw .storage("signing failed: \(error)")
        }
    }

    // MARK: Rules of a client (WebAuthn §5.1.3 step 8, §5.1.4.1 step 8)

    /// A web origin's RP ID is its host or a registrable suffix of it; an app origin carries no
    /// host to compare, the server's origin list decides.
    private func checkRelyingParty(_ rpID: String) throws(PasskeyAuthenticatorError) {
        guard origin.hasPrefix("https://") || origin.hasPrefix("http://") else { return }
        guard let host = URL(string: origin)?.host, host == rpID || host.hasSuffix("." + rpID) else {
            throw .relyingPartyMismatch("RP ID \(rpID) is not valid for origin \(origin)")
        }
    }

    // MARK: The PIN (WebAuthn §6.2.3 user verification)

    /// Seals a new key under the PIN the prompt gives; `nil` without a prompt (UV then not
    /// possible, refused when `required`).
    private func seal(
        _ key: P256.Signing.PrivateKey, required: Bool, for request: PINRequest
    ) async throws(PasskeyAuthenticatorError) -> (salt: String, sealed: String)? {
        guard let pin else {
            if required { throw .userVerificationUnavailable }
            return nil
        }
        let chosen = try await ask(pin, request)
        guard chosen.count >= Self.minimumPINLength else { throw .pinTooShort(minimum: Self.minimumPINLength) }
        do {
            return try PINSealing.seal(Array(key.rawRepresentation), pin: chosen, kdf: kdf)
        } catch {
            throw .storage("sealing the passkey under its PIN failed: \(error)")
        }
    }

    /// The key to sign with, and whether the PIN opened it (UV). A wrong PIN gives a different
    /// key: nothing here can tell, the server's signature check does.
    private func unseal(_ credential: Stored, required: Bool) async throws(PasskeyAuthenticatorError)
        -> (P256.Signing.PrivateKey, verified: Bool)
    {
        guard let salt = credential.salt, let kdf = credential.kdf else {
            // A key kept without a PIN: presence only.
            if required { throw .userVerificationUnavailable }
            guard let raw = Base64URL.decode(credential.privateKey), let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
            else { throw .storage("the passkey's key is unreadable") }
            return (key, false)
        }
        guard let pin else { throw .userVerificationUnavailable }
        let typed = try await ask(pin, .unlock(rpID: credential.rpID, userName: credential.userName))
        let raw: [UInt8]
        do {
            raw = try PINSealing.open(sealed: credential.privateKey, salt: salt, pin: typed, kdf: kdf)
        } catch {
            throw .storage("the passkey's sealed key is unreadable: \(error)")
        }
        return (Self.signingKey(raw), true)
    }

    /// The P-256 key of 32 opened bytes. Bytes that are no valid scalar (zero or ≥ n, about one
    /// PIN in 2^32) come only from a wrong PIN; a key derived from their hash keeps that from
    /// showing here (the server refuses its signature like any other wrong PIN's).
    static func signingKey(_ raw: [UInt8]) -> P256.Signing.PrivateKey {
        var bytes = raw
        while true {
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes) { return key }
            bytes = Array(SHA256.hash(data: bytes))
        }
    }

    private func ask(_ prompt: PINPrompt, _ request: PINRequest) async throws(PasskeyAuthenticatorError) -> String {
        do {
            return try await prompt(request)
        } catch let error as PasskeyAuthenticatorError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    private func parameters(rpID: String, verified: Bool, signCount: UInt32) -> AuthenticatorResponseFactory.Parameters {
        AuthenticatorResponseFactory.Parameters(
            origin: origin, rpID: rpID, flags: verified ? [.userPresent, .userVerified] : [.userPresent],
            signCount: signCount)
    }

    private func load() async throws(PasskeyAuthenticatorError) -> [Stored] {
        do {
            guard let data = try await store.load(Self.storeKey) else { return [] }
            return try JSONDecoder().decode([Stored].self, from: data)
        } catch {
            throw .storage("\(error)")
        }
    }

    private func save(_ stored: [Stored]) async throws(PasskeyAuthenticatorError) {
        do {
            try await store.save(try JSONEncoder().encode(stored), for: Self.storeKey)
            if try await store.load(Self.legacyPINDigestKey) != nil { try await store.remove(Self.legacyPINDigestKey) }
        } catch {
            throw .storage("\(error)")
        }
    }
}
