import Foundation
import SesameProtocol
import SesameStore

/// The server's passkeys (docs/passkeys.md): options with fresh challenges, the two ceremonies,
/// and what they leave in the store and the audit log. The endpoints (account API, native
/// sign-in, hosted pages) decide what a ceremony is bound to and what a success gives.
package struct Passkeys: Sendable {
    package let relyingParty: RelyingParty
    package let store: any PasskeyStore
    package let challenges: PasskeyChallenges
    /// ``PasskeyPolicy/maximumFailedAssertions``.
    package let maximumFailedAssertions: Int
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    /// Longest WebAuthn answer accepted as form text (an RS256 signature and client data fit
    /// well inside).
    package static let maximumAnswerLength = 16 * 1024

    /// A `passkey_assertion` or `passkey_registration` form value (WebAuthn §5.1.8 JSON);
    /// `nil` when absent, too long, or not that JSON.
    package static func answer<Answer: Decodable>(_ text: String?, as type: Answer.Type) -> Answer? {
        guard let text, text.utf8.count <= maximumAnswerLength else { return nil }
        return try? JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// Longest passkey name.
    package static let maximumNameLength = 64
    /// Most passkeys per account.
    package static let maximumPerUser = 20

    package init(policy: PasskeyPolicy, issuer: URL, store: any PasskeyStore, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        relyingParty = RelyingParty(policy: policy, issuer: issuer)
        self.store = store
        challenges = PasskeyChallenges(store: store, lifetime: policy.challengeLifetime, now: now)
        maximumFailedAssertions = policy.maximumFailedAssertions
        self.audit = audit
        self.now = now
    }

    package var timeoutMilliseconds: Int { Int(challenges.lifetime * 1000) }

    // MARK: Registration (§7.1)

    /// §5.4 options for `user`, bound to `binding` (the access token's or browser session's
    /// digest): the user's passkeys are excluded, a discoverable credential is asked for, UV
    /// preferred, no attestation wanted.
    package func creationOptions(for user: UserRecord, binding: String) async throws -> CredentialCreationOptionsJSON {
        let existing = try await store.passkeys(userID: user.id)
        guard existing.count < Self.maximumPerUser else {
            throw ProviderFailure(
                .tooManyDevices, "The account has \(Self.maximumPerUser) passkeys, the most it may have; remove one first.")
        }
        let challenge = try await challenges.issue(.registration, userID: user.id, binding: binding)
        let display = user.claims.name ?? user.email
        return CredentialCreationOptionsJSON(
            rp: RelyingPartyEntity(id: relyingParty.id, name: relyingParty.name),
            user: UserEntityJSON(
                id: Base64URL.encode(PasskeyUserHandle.of(userID: user.id)), name: user.email, displayName: display),
            challenge: challenge, pubKeyCredParams: PasskeyPolicy.algorithms.map { CredentialParameters(alg: $0.rawValue) },
            timeout: timeoutMilliseconds,
            excludeCredentials: existing.map { CredentialDescriptorJSON(id: $0.credentialID, transports: $0.transports) },
            authenticatorSelection: AuthenticatorSelection(
                residentKey: "required", requireResidentKey: true, userVerification: WebAuthn.UserVerification.preferred.rawValue),
            attestation: "none")
    }

    /// Runs §7.1 on `registration` for `user` and stores the credential (step 26: a known id is
    /// refused). Records `passkey.registered` or `passkey.refused`.
    package func register(
        _ registration: PasskeyRegistration, user: UserRecord, binding: String, origin: RequestOrigin?
    ) async throws -> PasskeyRecord {
        let name = (registration.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= Self.maximumNameLength else {
            throw ProviderFailure(.validationFailed, "name is longer than \(Self.maximumNameLength) characters.")
        }
        do {
            let (challenge, _) = try await challenges.take(
                clientDataJSON: registration.credential.response.clientDataJSON, purposes: [.registration],
                binding: binding, userID: user.id)
            let verified = try RegistrationCeremony(relyingParty: relyingParty)
                .verify(registration.credential, challenge: challenge)
            let aaguid = verified.authenticatorData.attestedCredential?.aaguid.map { String(format: "%02x", $0) }.joined() ?? ""
            let flags = verified.authenticatorData.flags
            let kind = PasskeyAuthenticationContext.keyKind(backupEligible: flags.contains(.backupEligible), aaguid: aaguid)
            let record = PasskeyRecord(
                credentialID: Base64URL.encode(verified.credentialID), userID: user.id,
                publicKey: CBOREncoder.encode(verified.publicKey.cbor), signCount: verified.authenticatorData.signCount,
                uvInitialized: flags.contains(.userVerified), backupEligible: flags.contains(.backupEligible),
                backupState: flags.contains(.backedUp), transports: verified.transports, aaguid: aaguid,
                attestationFormat: verified.attestationFormat,
                name: name.isEmpty ? Self.defaultName(kind: kind, at: now()) : name, createdAt: now())
            do {
                try await store.insertPasskey(record)
            } catch StoreError.conflict {
                throw PasskeyRefusal.alreadyRegistered
            }
            audit.record(
                .passkeyRegistered, origin: origin, userID: user.id,
                detail: ["key_kind": kind, "attestation": record.attestationFormat])
            return record
        } catch let refusal as PasskeyRefusal {
            audit.record(.passkeyRefused, reason: refusal.reason, origin: origin, userID: user.id, detail: ["purpose": "registration"])
            throw refusal.endpointFailure(registration: true)
        }
    }

    package static func defaultName(kind: String, at time: Date) -> String {
        let day = ISO8601DateFormatter.string(from: time, timeZone: .gmt, formatOptions: [.withFullDate])
        return (kind == AuthenticationMethodReference.hardwareKey ? "Security key" : "Passkey") + " added \(day)"
    }

    // MARK: Authentication (§7.2)

    /// §5.5 options for a sign-in (`userID` `nil`: discoverable) or a step-up, bound to `binding`.
    package func requestOptions(
        _ purpose: WebAuthnChallengeRecord.Purpose, userID: String?, binding: String, clientID: String?,
        payload: String? = nil
    ) async throws -> CredentialRequestOptionsJSON {
        var allowed: [PasskeyRecord] = []
        if let userID { allowed = try await store.passkeys(userID: userID) }
        let challenge = try await challenges.issue(
            purpose, userID: userID, binding: binding, clientID: clientID, payload: payload)
        return CredentialRequestOptionsJSON(
            challenge: challenge, timeout: timeoutMilliseconds, rpId: relyingParty.id,
            allowCredentials: allowed.map { CredentialDescriptorJSON(id: $0.credentialID, transports: $0.transports) },
            userVerification: (purpose == .signIn ? WebAuthn.UserVerification.required : .preferred).rawValue)
    }

    /// Runs §7.2 on `assertion` for a challenge of one of `purposes` bound to `binding`. A first
    /// factor (``WebAuthnChallengeRecord/Purpose/signIn``) requires UV. Records `passkey.used`
    /// or `passkey.refused`.
    package func authenticate(
        _ assertion: AuthenticationResponseJSON, purposes: Set<WebAuthnChallengeRecord.Purpose>, binding: String,
        origin: RequestOrigin?, clientID: String? = nil
    ) async throws -> (challenge: WebAuthnChallengeRecord, verified: AuthenticationCeremony.Verified) {
        do {
            let (challenge, record) = try await challenges.take(
                clientDataJSON: assertion.response.clientDataJSON, purposes: purposes, binding: binding)
            var allowed: [String] = []
            if let userID = record.userID { allowed = try await store.passkeys(userID: userID).map(\.credentialID) }
            if record.userID != nil, allowed.isEmpty { throw PasskeyRefusal.unknownCredential }
            let ceremony = AuthenticationCeremony(
                relyingParty: relyingParty, store: store, maximumFailures: maximumFailedAssertions, now: now)
            let verified = try await ceremony.verify(
                assertion, challenge: challenge, userID: record.userID, allowed: allowed,
                requiresUserVerification: record.purpose == .signIn)
            audit.record(
                .passkeyUsed, origin: origin, clientID: clientID ?? record.clientID, userID: verified.passkey.userID,
                detail: [
                    "purpose": record.purpose.rawValue, "key_kind": PasskeyAuthenticationContext.keyKind(verified.passkey),
                    "user_verified": verified.flags.contains(AuthenticatorData.Flags.userVerified) ? "true" : "false",
                ])
            return (record, verified)
        } catch let refusal as PasskeyRefusal {
            audit.record(.passkeyRefused, reason: refusal.reason, origin: origin, clientID: clientID)
            if case .locked(let lock) = refusal, lock.lockedNow {
                audit.record(
                    .passkeyLocked, reason: "too_many_wrong_signatures", origin: origin, clientID: clientID,
                    userID: lock.userID,
                    detail: ["credential_id": lock.credentialID, "failures": "\(maximumFailedAssertions)"])
            }
            throw refusal.endpointFailure(registration: false)
        }
    }

    // MARK: Account API

    package static func descriptor(_ record: PasskeyRecord) -> Passkey {
        Passkey(
            id: record.credentialID, name: record.name, createdAt: Int(record.createdAt.timeIntervalSince1970),
            lastUsedAt: record.lastUsedAt.map { Int($0.timeIntervalSince1970) }, backupEligible: record.backupEligible,
            backedUp: record.backupState, keyKind: PasskeyAuthenticationContext.keyKind(record),
            locked: record.lockedAt != nil)
    }
}
