import Crypto
import Foundation
import SesameProtocol

/// WebAuthn Level 3 §7.2 steps 7–22 for one assertion against a stored credential: client data,
/// authenticator data, flags, backup eligibility, signature and counter. No store access, so it
/// is what ``AuthenticationCeremony`` runs between finding the record and saving its new state,
/// and what the benchmark measures against a bare signature check.
public struct PasskeyAssertionVerifier: Sendable {
    /// What the relying party kept of the credential (§7.1 step 27).
    public struct Stored: Sendable {
        /// COSE_Key bytes.
        public var publicKey: Data
        public var signCount: UInt32
        public var backupEligible: Bool

        public init(publicKey: Data, signCount: UInt32, backupEligible: Bool) {
            self.publicKey = publicKey
            self.signCount = signCount
            self.backupEligible = backupEligible
        }
    }

    /// What the assertion says, once verified.
    public struct Outcome: Sendable {
        public let flags: AuthenticatorData.Flags
        public let signCount: UInt32
    }

    let relyingParty: RelyingParty

    init(relyingParty: RelyingParty) {
        self.relyingParty = relyingParty
    }

    /// A verifier for `relyingPartyID`, accepting `origins` (compared exactly).
    public init(relyingPartyID: String, origins: Set<String>) {
        relyingParty = RelyingParty(id: relyingPartyID, origins: origins)
    }

    /// Runs the steps; throws the first ``PasskeyRefusal``.
    public func verify(
        _ credential: AuthenticationResponseJSON, challenge expected: String, stored: Stored, requiresUserVerification: Bool
    ) throws(PasskeyRefusal) -> Outcome {
        // Step 7.
        guard let clientDataJSON = Base64URL.decode(credential.response.clientDataJSON),
            let authDataBytes = Base64URL.decode(credential.response.authenticatorData),
            let signature = Base64URL.decode(credential.response.signature)
        else { throw .malformedCredential("clientDataJSON, authenticatorData and signature must be base64url") }
        // Steps 8–9.
        guard let clientData = CollectedClientData.parse(clientDataJSON) else { throw .malformedClientData }
        // Steps 10–14.
        try ClientDataChecks.verify(clientData, type: WebAuthn.getType, challenge: expected, relyingParty: relyingParty)
        let authData: AuthenticatorData
        do {
            authData = try AuthenticatorData(authDataBytes)
        } catch {
            throw .malformedAuthenticatorData(error.description)
        }
        // Steps 15–18.
        try AuthenticatorDataChecks.verify(
            authData, relyingParty: relyingParty, requiresUserVerification: requiresUserVerification)
        // Step 19: BE never changes for a credential (§6.1.3).
        guard authData.flags.contains(.backupEligible) == stored.backupEligible else { throw .backupEligibilityChanged }
        // Steps 20–21.
        let clientDataHash = Data(SHA256.hash(data: clientDataJSON))
        guard
            let valid = PasskeySignature.verify(
                signature, storedKey: stored.publicKey, authenticatorData: authDataBytes, clientDataHash: clientDataHash)
        else { throw .unsupportedAlgorithm("the stored key cannot be read") }
        guard valid else { throw .badSignature }
        // Step 22: a counter that does not increase is refused (Sesame's policy: a clone signal
        // is a refusal, and the audit log says so).
        if authData.signCount != 0 || stored.signCount != 0, authData.signCount <= stored.signCount {
            throw .counterRegression(stored: stored.signCount, presented: authData.signCount)
        }
        return Outcome(flags: authData.flags, signCount: authData.signCount)
    }
}
