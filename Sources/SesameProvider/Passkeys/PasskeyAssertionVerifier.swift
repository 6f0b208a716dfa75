import Crypto
import Foundation
import SesameProtocol
import SesameStore

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

    package let relyingParty: RelyingParty

    package init(relyingParty: RelyingParty) {
        self.relyingParty = relyingParty
    }

    /// A verifier for `relyingPartyID`, accepting `origins` (compared exactly).
    public init(relyingPartyID: String, origins: Set<String>) {
        relyingParty = RelyingParty(id: relyingPartyID, origins: origins)
    }

    /// What steps 7–19 established, for the signature check (steps 20–22).
    package struct Checked: Sendable {
        package let authenticatorData: AuthenticatorData
        package let authenticatorDataBytes: Data
        package let clientDataHash: Data
        package let signature: Data
    }

    /// Runs the steps; throws the first ``PasskeyRefusal``.
    public func verify(
        _ credential: AuthenticationResponseJSON, challenge expected: String, stored: Stored, requiresUserVerification: Bool
    ) throws(PasskeyRefusal) -> Outcome {
        let checked = try checkBeforeSignature(
            credential, challenge: expected, stored: stored, requiresUserVerification: requiresUserVerification)
        return try checkSignature(checked, stored: stored)
    }

    /// Steps 7–19: everything that tests no secret. ``AuthenticationCeremony`` reserves a
    /// signature check in the store between this and ``checkSignature(_:stored:)``.
    package func checkBeforeSignature(
        _ credential: AuthenticationResponseJSON, challenge expected: String, stored: Stored, requiresUserVerification: Bool
    ) throws(PasskeyRefusal) -> Checked {
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
        return Checked(
            authenticatorData: authData, authenticatorDataBytes: authDataBytes,
            clientDataHash: Data(SHA256.hash(data: clientDataJSON)), signature: signature)
    }

    /// Steps 20–22: the signature over authenticator data and client data hash, then the counter.
    package func checkSignature(_ checked: Checked, stored: Stored) throws(PasskeyRefusal) -> Outcome {
        // Steps 20–21.
        guard
            let valid = PasskeySignature.verify(
                checked.signature, storedKey: stored.publicKey, authenticatorData: checked.authenticatorDataBytes,
                clientDataHash: checked.clientDataHash)
        else { throw .unsupportedAlgorithm("the stored key cannot be read") }
        guard valid else { throw .badSignature }
        // Step 22: a counter that does not increase is refused (Sesame's policy: a clone signal
        // is a refusal, and the audit log says so).
        let authData = checked.authenticatorData
        if authData.signCount != 0 || stored.signCount != 0, authData.signCount <= stored.signCount {
            throw .counterRegression(stored: stored.signCount, presented: authData.signCount)
        }
        return Outcome(flags: authData.flags, signCount: authData.signCount)
    }
}
