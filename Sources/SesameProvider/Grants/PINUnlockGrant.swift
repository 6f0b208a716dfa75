import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// PIN unlock at `/token` (docs/pin-devices.md), `grant_type` ``PINUnlock/grantType``, for
/// first-party clients: the device signs a nonce from `POST /api/pin/nonce` with the Ed25519 key
/// its PIN unsealed. The server is the only place a PIN guess can be tested, so a guess is
/// evaluated only after it was counted (docs/pin-devices.md, "Reserve, then verify"):
/// 1. reserve: one conditional statement counts the attempt as a failure, unless the client's
///    ``PINPolicy/maximumAttempts`` failures in a row were counted already; then nothing is
///    verified and the answer is 400 `pin_registration_revoked` (2011);
/// 2. verify the signature;
/// 3. settle: a good signature starts the failures over, and fresh tokens come back with `amr`
///    `["pin", "swk"]` (RFC 8176: a PIN unlocked a software-secured key), bound to the
///    registration (session `pin:<id>`), so removing the registration ends them; a registration
///    revoked meanwhile gets none. A bad one (a wrong PIN) stays counted: 400 `invalid_pin`
///    (2010) with `remaining_attempts`, and the guess that used the last attempt revokes the
///    registration and its tokens (400 `pin_registration_revoked`).
/// A bad, expired or reused nonce is `invalid_grant` and counts nothing.
package struct PINUnlockGrant: Sendable {
    package let store: any IdentityStore
    package let pin: PINRegistrations
    package let tokenIssuer: TokenIssuer
    /// The cap on each user's live sessions, applied when tokens open a new family.
    package var sessionCap: SessionCap
    package let now: @Sendable () -> Date

    package init(
        store: any IdentityStore,
        pin: PINRegistrations,
        tokenIssuer: TokenIssuer,
        sessionCap: SessionCap,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.pin = pin
        self.tokenIssuer = tokenIssuer
        self.sessionCap = sessionCap
        self.now = now
    }

    /// Scopes a PIN session gets unless the request names fewer.
    package static let defaultScope = "openid profile email offline_access"

    package func exchange(
        _ request: PINUnlockRequest, client: ClientRecord, origin: RequestOrigin, confirmation: TokenConfirmation? = nil
    ) async throws -> TokenResponse {
        guard client.firstParty else {
            throw ProviderFailure(.unauthorizedClient, "Only first-party clients may unlock with a PIN.")
        }
        let registrationID = request.registrationID ?? ""
        let nonce = request.nonce ?? ""
        let signatureText = request.signature ?? ""
        let missing = [
            (PINUnlock.registrationIDParameter, registrationID), (PINUnlock.nonceParameter, nonce),
            (PINUnlock.signatureParameter, signatureText),
        ].filter { $0.1.isEmpty }.map(\.0)
        guard missing.isEmpty else {
            throw ProviderFailure(.invalidRequest, "\(missing.joined(separator: ", ")) required for the PIN grant.")
        }
        guard let registration = try await pin.registration(registrationID, clientID: client.clientID) else {
            throw ProviderFailure(
                .pinRegistrationRevoked, "The PIN registration is unknown or revoked; sign in again and register the PIN anew.")
        }
        if let refusal = try await pin.nonces.redeem(nonce, registrationID: registrationID) {
            throw ProviderFailure(
                .invalidGrant,
                "The nonce was refused (rule \(refusal.rawValue)); ask POST /api/pin/nonce for a new one. No PIN attempt was counted.")
        }
        // 1. Reserve: the guess is counted before it is evaluated.
        let policy = try await pin.policy(clientID: registration.clientID)
        guard
            let failures = try await pin.pinStore.reservePINAttempt(
                id: registration.id, maxAttempts: policy.maximumAttempts)
        else { try await noAttemptLeft(registration, policy: policy) }
        // 2. Verify.
        let input = PINUnlock.signingInput(registrationID: registrationID, nonce: nonce)
        let valid: Bool
        if let signature = Base64URL.decode(signatureText),
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: registration.publicKey)
        {
            valid = key.isValidSignature(signature, for: input)
        } else {
            valid = false
        }
        // 3. Settle.
        guard valid else { try await wrongPIN(registration, failures: failures, policy: policy, origin: origin) }
        guard let user = try await store.user(id: registration.userID) else {
            try await pin.revoke(registration)
            throw ProviderFailure(.pinRegistrationRevoked, "The account of this PIN registration no longer exists.")
        }
        let now = now()
        guard try await pin.pinStore.settlePINSuccess(id: registration.id, now: now) else { throw Self.revokedMeanwhile }
        let tokens = try await issue(client: client, user: user, registration: registration, scope: request.scope, now: now, confirmation: confirmation)
        // A revocation between the settle and the issue would not have seen these tokens: end them.
        guard try await pin.pinStore.pinRegistration(id: registration.id) != nil else {
            try await store.revokeRefreshTokens(sessionID: registration.sessionID, now: now, reason: .pinLocked)
            throw Self.revokedMeanwhile
        }
        pin.audit.record(.pinUnlocked, origin: origin, clientID: client.clientID, userID: user.id, detail: ["registration": registration.id])
        return tokens
    }

    private static var revokedMeanwhile: ProviderFailure {
        ProviderFailure(
            .pinRegistrationRevoked,
            "The PIN registration was revoked while this unlock was checked (too many wrong PINs, or removed); sign in again and register a new PIN.")
    }

    /// The reservation was refused: the maximum of wrong PINs was reached (by guesses evaluated
    /// or still being evaluated), or the registration is gone. Nothing was verified. Makes sure
    /// the registration and its tokens are revoked; throws the answer.
    private func noAttemptLeft(_ registration: PINRegistrationRecord, policy: PINPolicy) async throws -> Never {
        try await pin.revoke(registration, reason: .pinLocked)
        throw ProviderFailure(
            .pinRegistrationRevoked,
            "No PIN attempt is left (\(policy.maximumAttempts) wrong PINs in a row): the registration and its tokens are revoked; sign in again and register a new PIN. This PIN was not checked.")
    }

    /// A wrong PIN, already counted by its reservation (`failures` in a row now); throws the
    /// answer. The guess that used the last attempt revokes the registration.
    private func wrongPIN(
        _ registration: PINRegistrationRecord, failures: Int, policy: PINPolicy, origin: RequestOrigin
    ) async throws -> Never {
        let remaining = policy.maximumAttempts - failures
        if remaining <= 0 {
            try await pin.revoke(registration, reason: .pinLocked)
            pin.audit.record(
                .pinRemoved, reason: "too_many_wrong_pins", origin: origin, clientID: registration.clientID,
                userID: registration.userID, detail: ["registration": registration.id])
            throw ProviderFailure(
                .pinRegistrationRevoked,
                "\(policy.maximumAttempts) wrong PINs in a row: the registration and its tokens are revoked; sign in again and register a new PIN.")
        }
        pin.audit.record(
            .pinFailed, reason: "wrong_pin", origin: origin, clientID: registration.clientID, userID: registration.userID,
            detail: ["registration": registration.id, "remaining": "\(remaining)"])
        var failure = ProviderFailure(
            .invalidPIN, "Wrong PIN; \(remaining) attempt\(remaining == 1 ? "" : "s") left before the registration is revoked.")
        failure.remainingAttempts = remaining
        throw failure
    }

    private func issue(
        client: ClientRecord, user: UserRecord, registration: PINRegistrationRecord, scope requested: String?, now: Date,
        confirmation: TokenConfirmation?
    ) async throws -> TokenResponse {
        let allowed = Set(client.allowedScopes)
        let asked = ScopeList.parse(requested ?? Self.defaultScope)
        guard asked.allSatisfy(allowed.contains) || requested == nil else {
            throw ProviderFailure(.invalidScope, "The client may not ask for \(asked.filter { !allowed.contains($0) }.joined(separator: " ")).")
        }
        let scope = ScopeList.format(asked.filter(allowed.contains))
        let authentication = AuthenticationContext(
            userID: user.id, authTime: now, acr: AuthenticationContextClass.password,
            amr: [AuthenticationMethodReference.pin, AuthenticationMethodReference.softwareKey])
        return try await GrantTokens(store: store, tokenIssuer: tokenIssuer, sessionCap: sessionCap).issue(
            client: client, authentication: authentication, scope: scope, sessionID: registration.sessionID,
            familyID: SecureRandom.uuid(), nonce: nil, claims: nil, withRefreshToken: true, now: now,
            confirmation: confirmation)
    }
}
