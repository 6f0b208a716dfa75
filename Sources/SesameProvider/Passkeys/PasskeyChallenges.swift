import Foundation
import SesameProtocol
import SesameStore

/// The challenges of WebAuthn options (§13.4.3): 32 random bytes, single use, short-lived,
/// stored as a digest with their purpose and binding (``WebAuthnChallengeRecord``). An answer is
/// matched to its challenge by the `challenge` of its client data, then checked against what the
/// request presents: the same purpose, user and binding, or it is refused (§7.1 step 8, §7.2
/// step 11).
package struct PasskeyChallenges: Sendable {
    package let store: any PasskeyStore
    package let lifetime: TimeInterval
    package let now: @Sendable () -> Date

    /// Hands out a new challenge (base64url).
    package func issue(
        _ purpose: WebAuthnChallengeRecord.Purpose, userID: String?, binding: String, clientID: String? = nil,
        payload: String? = nil
    ) async throws -> String {
        let challenge = Base64URL.encode(SecureRandom.bytes(32))
        let created = now()
        try await store.insertWebAuthnChallenge(
            WebAuthnChallengeRecord(
                challengeDigest: SecretDigest.of(challenge), purpose: purpose, userID: userID, binding: binding,
                clientID: clientID, payload: payload, createdAt: created, expiresAt: created.addingTimeInterval(lifetime)))
        return challenge
    }

    /// Takes the challenge named by `clientDataJSON` (base64url) out of the store, whatever
    /// follows: a challenge answered wrongly is spent too. Returns it and its record, or the
    /// refusal (§7.1 step 8, §7.2 step 11).
    package func take(
        clientDataJSON: String, purposes: Set<WebAuthnChallengeRecord.Purpose>, binding: String, userID: String? = nil
    ) async throws -> (challenge: String, record: WebAuthnChallengeRecord) {
        guard let bytes = Base64URL.decode(clientDataJSON), let clientData = CollectedClientData.parse(bytes) else {
            throw PasskeyRefusal.malformedClientData
        }
        guard !clientData.challenge.isEmpty, clientData.challenge.utf8.count <= 128,
            let record = try await store.consumeWebAuthnChallenge(digest: SecretDigest.of(clientData.challenge), now: now())
        else { throw PasskeyRefusal.challenge("unknown, expired or used already") }
        guard purposes.contains(record.purpose) else { throw PasskeyRefusal.challenge("for another ceremony") }
        guard ConstantTime.equals(record.binding, binding) else { throw PasskeyRefusal.challenge("bound to another session") }
        if let userID, record.userID != userID { throw PasskeyRefusal.challenge("for another user") }
        return (clientData.challenge, record)
    }
}
