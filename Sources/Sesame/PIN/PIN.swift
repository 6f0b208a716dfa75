import Crypto
import Foundation
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The result of ``SesameClient/PIN/deregister(profile:)``.
public struct PINDeregistration: Sendable, Equatable {
    /// The registration that was removed; this device can no longer unlock it with the PIN.
    public let profile: PINProfile
    /// Whether the server revoked the registration too (it needs the unlocked session's token);
    /// `false`: only this device forgot it, and the registration ends when its tokens expire or
    /// the user removes it from the list of PIN devices.
    public let serverReached: Bool
}

extension SesameClient {
    /// PIN-protected device sessions (SPEC §1.6, docs/pin-devices.md); take it with
    /// ``SesameClient/pin``. After a sign-in the user registers the device with a short PIN;
    /// from then on the PIN unlocks the session, the server counts wrong PINs and revokes the
    /// registration at the client's maximum. The device key is sealed as `seed XOR scrypt(PIN)`
    /// on the device; the plain refresh token is no longer kept on the device: an unlocked
    /// session lives in memory.
    public struct PIN: Sendable {
        let client: SesameClient
        private var api: AccountAPI { AccountAPI(issuer: client.configuration.issuer) }
        private var vault: PINVaultStore { PINVaultStore(store: client.credentialStore, clientID: client.configuration.clientID) }

        /// The client's PIN policy, published by the server (`GET /api/pin/policy`): length,
        /// attempts, repeated digits, blacklist.
        public func policy() async throws(SesameError) -> PINPolicy {
            let configuration = client.configuration
            try configuration.validate()
            var components = URLComponents(url: api.url("pin", "policy"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "client_id", value: configuration.clientID)]
            guard let url = components?.url else { throw .invalidConfiguration("the issuer URL cannot take a query") }
            var request = URLRequest(url: url)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let (data, response) = try await client.http.send(request)
            return try AccountAPI.decode(PINPolicy.self, data, response, what: "PIN policy")
        }

        /// Registers this device for PIN unlock of a signed-in account (the current one by default).
        /// The PIN is checked against the policy first, each rule with its own error
        /// (``SesameError/Code-swift.struct/pinTooShort``, ``SesameError/Code-swift.struct/pinIsSequence``,
        /// ``SesameError/Code-swift.struct/pinTooManySimilarDigits``, ``SesameError/Code-swift.struct/pinBlacklisted``).
        /// The sign-in must be recent (5 minutes); otherwise
        /// ``SesameError/Code-swift.struct/stepUpRequired``: re-authenticate
        /// (``SesameClient/MFA/reauthenticate(password:account:)``) and retry. Afterwards the
        /// account's stored session, with its refresh token, is removed from the device; it stays
        /// usable in memory.
        public func register(_ pin: String, for account: Account.ID? = nil, label: String? = nil)
            async throws(SesameError) -> PINProfile
        {
            try Self.check(pin, against: try await policy())
            let (session, _) = try await client.registry.session(for: account)
            let seed = SecureRandom.bytes(PINVault.seedLength)
            let publicKey = try PINVault.signingKey(seed).publicKey.rawRepresentation
            let name = label ?? session.account.email ?? session.account.displayName
            let body = PINRegistrationRequest(publicKey: Base64URL.encode(publicKey), label: name)
            let (data, response) = try await client.data(
                for: try api.request("POST", "pin", "registrations", json: body), account: session.account.id)
            let registration = try AccountAPI.decode(PINRegistration.self, data, response, what: "PIN registration")
            let configuration = client.configuration
            let kdf = configuration.pinKeyDerivation
            let sealed = try PINVault.seal(seed, pin: pin, kdf: kdf)
            let record = PINVaultRecord(
                registrationID: registration.id, accountID: session.account.id, issuer: session.account.issuer,
                subject: session.account.subject, clientID: configuration.clientID, label: name,
                createdAt: client.clock.now(), kdf: kdf, salt: sealed.salt, sealedSeed: sealed.sealed)
            try await vault.save(record)
            try await client.registry.keepInMemoryOnly(session.account.id)
            client.registry.notePINActivity(session.account.id, at: client.clock.now())
            client.logger.info("registered a PIN", metadata: ["account": "\(session.account.id)"])
            return record.profile
        }

        /// The PIN registrations on this device, oldest first.
        public func profiles() async -> [PINProfile] {
            await vault.records().map(\.profile)
        }

        /// Unlocks a PIN profile (the only or newest one by default) and returns its account, now
        /// current. An account already unlocked in this run is returned at once unless `force`.
        /// - Throws: ``SesameError/Code-swift.struct/wrongPIN`` with the attempts left;
        ///   ``SesameError/Code-swift.struct/pinDeregistered`` when the server revoked the
        ///   registration (the last wrong PIN does; its material is deleted first and
        ///   ``SesameEvent/pinDeregistered(_:)`` sent).
        @discardableResult
        public func unlock(with pin: String, profile: PINProfile.ID? = nil, force: Bool = false)
            async throws(SesameError) -> Account
        {
            let record = try await vault.record(profile)
            let registry = client.registry
            let now = client.clock.now()
            if !force, let (session, _) = try? await registry.session(for: record.accountID), session.memoryOnly == true,
                !registry.useIsAfterIdle(record.accountID, now: now, timeout: client.configuration.pinSessionIdleTimeout)
            {
                return try await registry.switchTo(session.account.id, at: now)
            }
            _ = try await unlockSession(record, pin: pin)
            return try await registry.switchTo(record.accountID, at: client.clock.now())
        }

        /// Changes the PIN: the old one is proven to the server by an unlock, then the device key is
        /// sealed again under the new one (new salt, same key: the server changes nothing).
        public func change(from old: String, to new: String, profile: PINProfile.ID? = nil) async throws(SesameError) {
            let record = try await vault.record(profile)
            try Self.check(new, against: try await policy())
            let seed = try await unlockSession(record, pin: old)
            var changed = record
            let kdf = client.configuration.pinKeyDerivation
            let sealed = try PINVault.seal(seed, pin: new, kdf: kdf)
            changed.kdf = kdf
            changed.salt = sealed.salt
            changed.sealedSeed = sealed.sealed
            try await vault.save(changed)
        }

        /// Forgets a PIN profile on this device (always), and revokes it at the server when its
        /// session is unlocked; the account's session ends.
        @discardableResult
        public func deregister(profile: PINProfile.ID? = nil) async throws(SesameError) -> PINDeregistration {
            let record = try await vault.record(profile)
            await vault.remove(record.registrationID)
            var reached = false
            if (try? await client.registry.session(for: record.accountID)) != nil {
                let request = api.request("DELETE", "pin", "registrations", record.registrationID)
                if let (_, response) = try? await client.data(for: request, account: record.accountID) {
                    reached = response.statusCode == 204 || response.statusCode == 404
                }
                await client.registry.remove(record.accountID)
            }
            return PINDeregistration(profile: record.profile, serverReached: reached)
        }

        // MARK: Biometrics

        /// Lets `unlocker` release the profile's device key after a biometric check (Face ID,
        /// Touch ID). The PIN is proven to the server first (one unlock), so a wrong PIN never
        /// gets stored.
        public func enableBiometricUnlock(using unlocker: any BiometricUnlocker, pin: String, profile: PINProfile.ID? = nil)
            async throws(SesameError)
        {
            guard unlocker.isAvailable else { throw .biometricsUnavailable }
            let record = try await vault.record(profile)
            let seed = try await unlockSession(record, pin: pin)
            do {
                try await unlocker.store(Data(seed), for: record.registrationID)
            } catch {
                throw .biometricsUnavailable
            }
        }

        /// Unlocks with the biometric check instead of the PIN. A cancelled or failed check is
        /// ``SesameError/Code-swift.struct/biometricsUnavailable`` — nothing reaches the server,
        /// nothing is counted as a wrong PIN — and the app asks for the PIN.
        @discardableResult
        public func unlockWithBiometrics(using unlocker: any BiometricUnlocker, profile: PINProfile.ID? = nil, reason: String)
            async throws(SesameError) -> Account
        {
            let record = try await vault.record(profile)
            guard unlocker.isAvailable, let secret = await unlocker.secret(for: record.registrationID, reason: reason),
                secret.count == PINVault.seedLength
            else { throw .biometricsUnavailable }
            do {
                _ = try await unlockSession(record, seed: Array(secret))
            } catch {
                if case .pinDeregistered = error.reason { await unlocker.remove(for: record.registrationID) }
                throw error
            }
            return try await client.registry.switchTo(record.accountID, at: client.clock.now())
        }

        // MARK: The unlock exchange

        /// The unlock exchange with the PIN (scrypt, off the client's actor); returns the
        /// unsealed seed (for a PIN change).
        private func unlockSession(_ record: PINVaultRecord, pin: String) async throws(SesameError) -> [UInt8] {
            let seed = try PINVault.unseal(record, pin: pin)
            return try await unlockSession(record, seed: seed)
        }

        /// The unlock exchange with the device key's seed: a server nonce signed with the device
        /// key, redeemed at the token endpoint; the session lives in memory only.
        private func unlockSession(_ record: PINVaultRecord, seed: [UInt8]) async throws(SesameError) -> [UInt8] {
            let metadata = try await client.metadata()
            let key = try PINVault.signingKey(seed)
            let dpopKey = try await client.dpopKeyForSignIn(metadata)
            let tokens: TokenResponse
            do throws(SesameError) {
                let body = PINNonceRequest(clientID: client.configuration.clientID, registrationID: record.registrationID)
                let (data, response) = try await client.http.send(try api.request("POST", "pin", "nonce", json: body))
                let nonce = try AccountAPI.decode(PINNonce.self, data, response, what: "PIN nonce").nonce
                let signature: Data
                do {
                    signature = try key.signature(
                        for: PINUnlock.signingInput(registrationID: record.registrationID, nonce: nonce))
                } catch {
                    throw .technical(.platform("could not sign the PIN nonce: \(error)"))
                }
                tokens = try await client.tokenEndpoint.pinUnlock(
                    registrationID: record.registrationID, nonce: nonce, signature: signature, metadata: metadata,
                    dpopKey: dpopKey)
            } catch {
                switch error.apiError?.code {
                case .invalidPIN?:
                    throw .wrongPIN(remainingAttempts: error.apiError?.remainingAttempts ?? 0)
                case .pinRegistrationRevoked?:
                    await vault.remove(record.registrationID)
                    await client.registry.remove(record.accountID)
                    client.broadcaster.publish(.pinDeregistered(record.profile))
                    throw .pinDeregistered
                default:
                    throw error
                }
            }
            let expected = await client.expectations(
                metadata: metadata, nonce: nil, maxAge: nil, acrValues: nil, accessToken: tokens.accessToken)
            var session = try await client.validatedSession(
                tokens, expected: expected, metadata: metadata, username: nil, dpopKey: dpopKey)
            guard session.account.id == record.accountID else {
                throw .protocolViolation("the PIN unlock returned tokens for another account")
            }
            session.memoryOnly = true
            try await client.registry.signIn(session)
            client.registry.notePINActivity(session.account.id, at: client.clock.now())
            client.broadcaster.publish(.signedIn(session.account))
            return seed
        }

        /// The policy check of a new PIN, each rule its own error.
        static func check(_ pin: String, against policy: PINPolicy) throws(SesameError) {
            switch policy.violation(pin) {
            case nil: return
            case .notNumeric: throw .pinNotNumeric
            case .tooShort(let minimum): throw .pinTooShort(minimum: minimum)
            case .sequence: throw .pinIsSequence
            case .tooManySimilarDigits(let maximum): throw .pinTooManySimilarDigits(maximum: maximum)
            case .blacklisted: throw .pinBlacklisted
            }
        }
    }

    /// PIN-protected devices: register a PIN, unlock with it or with biometrics.
    public nonisolated var pin: PIN { PIN(client: self) }
}
