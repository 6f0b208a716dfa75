import Crypto
import Foundation
import SesameProtocol
import _CryptoExtras

/// User verification for ``SoftwarePasskeyAuthenticator`` by a local PIN or passphrase (WebAuthn
/// §6.2.3 "user verification": the authenticator itself checks who is there). Kept beside the
/// keys as a PBKDF2-SHA256 digest (210,000 rounds, 16-byte salt); five wrong answers in a row lock
/// it, and the authenticator then answers without UV (a second factor only) until a new PIN is set.
public struct PasskeyLocalPIN: Sendable {
    /// The store key (JSON: salt, digest, failures).
    public static let storeKey = "sesame.passkeys.pin"
    public static let minimumLength = 4
    public static let maximumFailures = 5
    static let rounds = 210_000

    struct Stored: Codable {
        var salt: String
        var digest: String
        var failures: Int
    }

    private let store: any CredentialStore

    public init(store: any CredentialStore) {
        self.store = store
    }

    /// Whether a PIN is set (and not locked).
    public func isSet() async -> Bool {
        guard let stored = try? await load() else { return false }
        return stored.failures < Self.maximumFailures
    }

    /// Sets (or replaces) the PIN.
    public func set(_ pin: String) async throws(PasskeyAuthenticatorError) {
        guard pin.count >= Self.minimumLength else {
            throw .userVerificationUnavailable
        }
        let salt = Data(SecureRandom.bytes(16))
        try await save(Stored(salt: salt.base64EncodedString(), digest: try Self.digest(pin, salt: salt), failures: 0))
    }

    /// Checks `pin`; a wrong one counts, the fifth in a row locks the PIN.
    public func verify(_ pin: String) async throws(PasskeyAuthenticatorError) -> Bool {
        guard var stored = try await load(), stored.failures < Self.maximumFailures,
            let salt = Data(base64Encoded: stored.salt)
        else { throw .userVerificationUnavailable }
        let matches = ConstantTime.equals(try Self.digest(pin, salt: salt), stored.digest)
        stored.failures = matches ? 0 : stored.failures + 1
        try await save(stored)
        return matches
    }

    /// The ``SoftwarePasskeyAuthenticator/LocalCheck`` that asks with `prompt` and checks here.
    public func check(asking prompt: @escaping @Sendable () async throws -> String) -> SoftwarePasskeyAuthenticator.LocalCheck {
        let pin = self
        return { try await pin.verify(try await prompt()) }
    }

    static func digest(_ pin: String, salt: Data) throws(PasskeyAuthenticatorError) -> String {
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: Data(pin.utf8), salt: salt, using: .sha256, outputByteCount: 32, rounds: rounds)
            return key.withUnsafeBytes { Data($0) }.base64EncodedString()
        } catch {
            throw .storage("PBKDF2 failed: \(error)")
        }
    }

    private func load() async throws(PasskeyAuthenticatorError) -> Stored? {
        do {
            guard let data = try await store.load(Self.storeKey) else { return nil }
            return try JSONDecoder().decode(Stored.self, from: data)
        } catch {
            throw .storage("\(error)")
        }
    }

    private func save(_ stored: Stored) async throws(PasskeyAuthenticatorError) {
        do {
            try await store.save(try JSONEncoder().encode(stored), for: Self.storeKey)
        } catch {
            throw .storage("\(error)")
        }
    }
}
