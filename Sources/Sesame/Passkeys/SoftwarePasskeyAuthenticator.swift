import Crypto
import Foundation
import SesameProtocol

/// A passkey authenticator in software (docs/passkeys.md): P-256 keys (ES256) kept in a
/// ``CredentialStore`` (the encrypted file store on Linux and in the CLI), discoverable, with a
/// signature counter. For Linux, the CLI and tests; apps on Apple platforms use the system's.
///
/// It is honest about what it is: its AAGUID says "Sesame software" (the server records the key
/// as `swk`), it never claims to be backed up, and it sets UV only when a ``LocalCheck`` is
/// configured and passes (a PIN or passphrase the app asks for). Without one it answers with UP
/// only, which is enough for a second factor and refused as a first factor.
public actor SoftwarePasskeyAuthenticator: PasskeyAuthenticator {
    /// The user verification this authenticator performs (WebAuthn §6.2.3): returns `true` when
    /// the user proved who they are, `false` when they failed; throws to cancel.
    public typealias LocalCheck = @Sendable () async throws -> Bool

    /// A passkey kept here (no private key material).
    public struct Credential: Sendable, Equatable {
        /// base64url credential id.
        public var id: String
        public var rpID: String
        public var userName: String
        public var signCount: UInt32
    }

    struct Stored: Codable, Sendable {
        var id: String
        var rpID: String
        var userHandle: String
        var userName: String
        /// P-256 private key, raw, base64url.
        var privateKey: String
        var signCount: UInt32
    }

    /// The store key of the credentials (one entry, JSON).
    public static let storeKey = "sesame.passkeys"

    private let store: any CredentialStore
    private let origin: String
    private let localCheck: LocalCheck?
    private let attestation: AuthenticatorResponseFactory.Attestation

    /// - Parameters:
    ///   - store: where the keys live (use an encrypted store).
    ///   - origin: the origin the client data names: the issuer's origin for a web-like client,
    ///     or an app origin (`ios:bundle-id:…`) the server lists.
    ///   - localCheck: user verification; `nil`: UV is never set.
    ///   - attestation: `none` (default) or `packed` self attestation.
    public init(
        store: any CredentialStore, origin: String, localCheck: LocalCheck? = nil,
        attestation: AuthenticatorResponseFactory.Attestation = .none
    ) {
        self.store = store
        self.origin = origin
        self.localCheck = localCheck
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
        let verified = try await verifyUser(required: options.authenticatorSelection?.userVerification == "required")
        let key = P256.Signing.PrivateKey()
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
                privateKey: Base64URL.encode(key.rawRepresentation), signCount: 0))
        try await save(stored)
        return response
    }

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
        let verified = try await verifyUser(required: options.userVerification == "required")
        var credential = stored[index]
        guard let raw = Base64URL.decode(credential.privateKey), let key = try? P256.Signing.PrivateKey(rawRepresentation: raw),
            let id = Base64URL.decode(credential.id)
        else { throw .storage("the passkey's key is unreadable") }
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

    private func verifyUser(required: Bool) async throws(PasskeyAuthenticatorError) -> Bool {
        guard let localCheck else {
            if required { throw .userVerificationUnavailable }
            return false
        }
        let passed: Bool
        do {
            passed = try await localCheck()
        } catch let error as PasskeyAuthenticatorError {
            throw error
        } catch {
            throw .cancelled
        }
        guard passed else { throw .userVerificationUnavailable }
        return true
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
        } catch {
            throw .storage("\(error)")
        }
    }
}
