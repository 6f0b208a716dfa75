import Crypto
import _CryptoExtras
import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// PIN-protected device sessions (docs/pin-devices.md) through the SDK against the real server:
/// register, unlock, wrong PINs counting down to revocation, tokens that stop working with the
/// registration, several profiles, PIN change, deregistration with the server down, and the
/// property that matters most: the stored record gives an offline guesser nothing to check.
@Suite("PIN-protected device sessions")
struct PINDeviceTests {
    /// Cheap scrypt for tests (the benchmark measures the real cost).
    static let cheap = PINKeyDerivation(logN: 8, r: 8, p: 1)

    static func client(
        _ server: IntegrationServer, store: any CredentialStore = InMemoryCredentialStore(),
        clock: any SesameClock = SystemClock()
    ) -> SesameClient {
        var configuration = server.configuration()
        configuration.pinKeyDerivation = cheap
        var logger = Logger(label: "sesame.it.pin")
        logger.logLevel = .error
        return SesameClient(
            configuration: configuration, store: store, transport: URLSessionTransport(), clock: clock,
            logger: logger, retryPolicy: .none)
    }

    @Test("an unlocked session unused for longer than the idle timeout (15 minutes) is locked: noSession and signedOut(.locked); the PIN unlocks it again")
    func idleTimeout() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let store = InMemoryCredentialStore()
            _ = try await passwordLogin(Self.client(server, store: store), user)
            let registering = Self.client(server, store: store)
            _ = try await passwordLogin(registering, user)
            _ = try await registering.pin.register("24681")

            let clock = ManualClock()
            let app = Self.client(server, store: store, clock: clock)
            let account = try await app.pin.unlock(with: "24681")
            let events = app.events()
            clock.advance(by: 14 * 60)
            _ = try await app.validAccessToken()  // used within the timeout: the clock starts over
            clock.advance(by: 14 * 60)
            _ = try await app.validAccessToken()
            clock.advance(by: 15 * 60 + 1)
            do throws(SesameError) {
                _ = try await app.validAccessToken()
                Issue.record("an idle session gave a token")
            } catch {
                #expect(error.code == .noSession, "\(error)")
            }
            // After the refresh of the second use: the lock.
            var iterator = events.makeAsyncIterator()
            var signedOut: (Account, SignOutReason)?
            while signedOut == nil, let event = await iterator.next() {
                if case .signedOut(let gone, let reason) = event { signedOut = (gone, reason) }
            }
            #expect(signedOut?.0.id == account.id && signedOut?.1 == .locked)
            #expect(await app.pin.profiles().count == 1, "the PIN profile stays")
            #expect(try await app.pin.unlock(with: "24681").id == account.id)
        }
    }

    @Test("register after sign-in, unlock with amr pin; wrong PINs count down; the third revokes the registration, its tokens stop working, and the SDK deletes its material and says deregistered")
    func registerUnlockAndRevoke() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let store = InMemoryCredentialStore()
            let client = Self.client(server, store: store)
            let account = try await passwordLogin(client, user)
            let profile = try await client.pin.register("24681")
            #expect(profile.account == account.id)
            #expect(await client.pin.profiles() == [profile])
            // The stored session with its refresh token is gone; the session lives in memory.
            #expect(try await store.keys().filter { $0.hasPrefix("sesame.session.") }.isEmpty)

            // A fresh app start: nothing but the PIN record; unlock gives a session.
            let restarted = Self.client(server, store: store)
            #expect(await restarted.restore() == nil)
            let unlocked = try await restarted.pin.unlock(with: "24681")
            #expect(unlocked.subject == user.sub)
            let claims = try await restarted.idTokenClaims()
            #expect(claims.amr == ["pin", "swk"])
            let access = try await restarted.validAccessToken()
            #expect(try await restarted.userInfo().sub == user.sub)
            // Already unlocked: returned at once, unless forced.
            #expect(try await restarted.pin.unlock(with: "00000").id == unlocked.id, "no request: the next wrong PIN still leaves 1")

            let other = Self.client(server, store: store)
            let events = other.events()
            await #expect(throws: SesameError.self) { try await other.pin.unlock(with: "13570") }
            do throws(SesameError) {
                try await other.pin.unlock(with: "13570")
                Issue.record("a wrong PIN unlocked")
            } catch {
                #expect(error.code == .wrongPIN && error.remainingPINAttempts == 1, "\(error)")
            }
            do throws(SesameError) {
                try await other.pin.unlock(with: "13570")
                Issue.record("a wrong PIN unlocked")
            } catch {
                #expect(error.code == .pinDeregistered, "\(error)")
            }
            #expect(await other.pin.profiles().isEmpty, "the material is deleted")
            #expect(try await store.keys().filter { $0.hasPrefix("sesame.pin.") }.isEmpty)
            // The token issued through the registration no longer works at the server.
            var request = URLRequest(url: server.issuer.appendingPathComponent("userinfo"))
            request.setValue("Bearer \(access)", forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 401)
            // The event came before the error (the first and only one of this client).
            var iterator = events.makeAsyncIterator()
            guard case .pinDeregistered(let gone) = await iterator.next() else {
                Issue.record("expected the pinDeregistered event")
                return
            }
            #expect(gone.id == profile.id)
            await server.running.flushAuditLog()
            let log = server.running.store
            let pinEvents = try await log.auditRecords(AuditQuery(events: ["pin."])).map { "\($0.event) \($0.reason ?? "")" }
            #expect(pinEvents == ["pin.registered ", "pin.unlocked ", "pin.failed wrong_pin", "pin.failed wrong_pin", "pin.removed too_many_wrong_pins"], "\(pinEvents)")
        }
    }

    @Test("the policy: each rule its own error, and the defaults")
    func policy() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let client = Self.client(server)
            _ = try await passwordLogin(client, user)
            let policy = try await client.pin.policy()
            #expect(policy == PINPolicy())
            #expect(policy.minimumLength == 5 && policy.maximumAttempts == 3 && policy.maximumRepeatedDigits == 2)
            let cases: [(String, SesameError)] = [
                ("1234", .pinTooShort(minimum: 5)), ("12a45", .pinNotNumeric), ("12345", .pinIsSequence),
                ("98765", .pinIsSequence), ("11123", .pinTooManySimilarDigits(maximum: 2)), ("13579", .pinBlacklisted),
            ]
            for (pin, expected) in cases {
                do throws(SesameError) {
                    _ = try await client.pin.register(pin)
                    Issue.record("\(pin) was accepted")
                } catch {
                    #expect(error == expected, "\(pin): \(error)")
                    #expect(error.category == .invalidInput)
                }
            }
            #expect(await client.pin.profiles().isEmpty)
        }
    }

    @Test("two users on one device: each unlocks their own profile; a PIN change keeps the registration; deregistering with the server down forgets the profile locally and says the server was not reached")
    func profilesChangeAndOfflineDeregistration() async throws {
        try await withServer { server in
            let store = InMemoryCredentialStore()
            let grace = try await server.addUser("grace")
            let alan = try await server.addUser("alan")
            let client = Self.client(server, store: store)
            _ = try await passwordLogin(client, grace)
            let graceProfile = try await client.pin.register("24681")
            _ = try await passwordLogin(client, alan)
            let alanProfile = try await client.pin.register("86420")
            #expect(await client.pin.profiles().map(\.id) == [graceProfile.id, alanProfile.id])

            let app = Self.client(server, store: store)
            #expect(try await app.pin.unlock(with: "24681", profile: graceProfile.id).subject == grace.sub)
            #expect(try await app.pin.unlock(with: "86420", profile: alanProfile.id).subject == alan.sub)

            try await app.pin.change(from: "24681", to: "97310", profile: graceProfile.id)
            let later = Self.client(server, store: store)
            #expect(try await later.pin.unlock(with: "97310", profile: graceProfile.id).subject == grace.sub)
            await server.stop()
            let offline = Self.client(server, store: store)
            let result = try await offline.pin.deregister(profile: alanProfile.id)
            #expect(result.serverReached == false)
            #expect(await offline.pin.profiles().map(\.id) == [graceProfile.id])
        }
    }

    @Test("the stored record under 1,000 wrong PINs: 1,000 distinct keys of the right length, and nothing in it a guess could be checked against")
    func noOfflineOracle() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let store = InMemoryCredentialStore()
            let client = Self.client(server, store: store)
            _ = try await passwordLogin(client, user)
            let profile = try await client.pin.register("24681")
            let data = try #require(try await store.load("sesame.pin.\(profile.id)"))
            let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            // Identifiers, the KDF's parameters, a salt and the sealed seed: no tag, no hash, no public key.
            let allowed: Set<String> = [
                "version", "registration_id", "account_id", "issuer", "subject", "client_id", "label", "created_at", "kdf",
                "salt", "sealed_seed",
            ]
            #expect(Set(record.keys).isSubset(of: allowed), "\(record.keys)")
            #expect(record["kdf"] as? [String: Int] == ["logN": 8, "r": 8, "p": 1])
            let saltText = try #require(record["salt"] as? String)
            let sealedText = try #require(record["sealed_seed"] as? String)
            let salt = try #require(Base64URL.decode(saltText))
            let sealed = try #require(Base64URL.decode(sealedText))
            #expect(sealed.count == 32)
            let kdf = Self.cheap
            func open(_ pin: String) throws -> [UInt8] {
                let pad = try KDF.Scrypt.deriveKey(
                    from: Array(pin.utf8), salt: salt, outputByteCount: 32, rounds: 1 << kdf.logN, blockSize: kdf.r,
                    parallelism: kdf.p
                ).withUnsafeBytes { Array($0) }
                return zip(sealed, pad).map { $0 ^ $1 }
            }
            let right = try open("24681")
            var seen = Set<[UInt8]>()
            for guess in 0..<1000 {
                let pin = String(format: "%05d", 30000 + guess)
                let value = try open(pin)
                #expect(value.count == right.count)
                seen.insert(value)
                // Every value is a valid Ed25519 seed: a key comes out of each, as out of the right one.
                _ = try Curve25519.Signing.PrivateKey(rawRepresentation: value)
            }
            #expect(seen.count == 1000 && !seen.contains(right))
            // The public key (which would let a guess be checked) is only at the server.
            let publicKey = try Curve25519.Signing.PrivateKey(rawRepresentation: right).publicKey.rawRepresentation
            #expect(!String(decoding: data, as: UTF8.self).contains(Base64URL.encode(publicKey)))
        }
    }

    @Test("biometric unlock: enabled after the PIN is proven; a check releases the key and unlocks; a cancelled check falls back to the PIN and counts nothing; without biometrics it says so")
    func biometrics() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let store = InMemoryCredentialStore()
            let client = Self.client(server, store: store)
            _ = try await passwordLogin(client, user)
            _ = try await client.pin.register("24681")
            let biometrics = TestBiometrics()
            do throws(SesameError) {
                try await client.pin.enableBiometricUnlock(using: biometrics, pin: "13570")
                Issue.record("a wrong PIN enabled biometrics")
            } catch {
                #expect(error.code == .wrongPIN && error.remainingPINAttempts == 2, "\(error)")
            }
            #expect(await biometrics.count == 0, "nothing stored after a wrong PIN")
            try await client.pin.enableBiometricUnlock(using: biometrics, pin: "24681")
            #expect(await biometrics.count == 1)

            let app = Self.client(server, store: store)
            let account = try await app.pin.unlockWithBiometrics(using: biometrics, reason: "Unlock")
            #expect(account.subject == user.sub)
            #expect(try await app.idTokenClaims().amr == ["pin", "swk"])

            await biometrics.cancelNext()
            let other = Self.client(server, store: store)
            do throws(SesameError) {
                try await other.pin.unlockWithBiometrics(using: biometrics, reason: "Unlock")
                Issue.record("a cancelled check unlocked")
            } catch {
                #expect(error.code == .biometricsUnavailable, "\(error)")
            }
            // Nothing was counted: a wrong PIN now leaves 2 of 3.
            do throws(SesameError) {
                try await other.pin.unlock(with: "13570")
            } catch {
                #expect(error.code == .wrongPIN && error.remainingPINAttempts == 2, "\(error)")
            }
            do throws(SesameError) {
                try await other.pin.enableBiometricUnlock(using: NoBiometricUnlocker(), pin: "24681")
                Issue.record("no biometrics here")
            } catch {
                #expect(error.code == .biometricsUnavailable, "\(error)")
            }
        }
    }
}

/// A biometric unlocker double: keeps secrets in memory; a check succeeds unless cancelled.
actor TestBiometrics: BiometricUnlocker {
    private var secrets: [String: Data] = [:]
    private var cancel = false

    nonisolated var isAvailable: Bool { true }
    var count: Int { secrets.count }
    func cancelNext() { cancel = true }

    func store(_ secret: Data, for profile: String) async throws { secrets[profile] = secret }

    func secret(for profile: String, reason: String) async -> Data? {
        defer { cancel = false }
        return cancel ? nil : secrets[profile]
    }

    func remove(for profile: String) async { secrets[profile] = nil }
}
