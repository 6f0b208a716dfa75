import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// WebAuthn Level 3 §7.1 "Registering a New Credential", the relying party's steps 3–26, each
/// named where it is done. Steps 1–2 are the options the server handed out (``PasskeyChallenges``)
/// and the client's call; step 27 builds the record; steps 28–29 are the caller's (extensions
/// are ignored, as §7.1 step 28 allows; the record is stored by ``PasskeyRegistrations``).
///
/// Policy: `none` attestation and `packed` self attestation are verified; other formats are
/// accepted as `none` (§7.1 step 24 note: no claim about the authenticator model is made).
package struct RegistrationCeremony: Sendable {
    package let relyingParty: RelyingParty

    package struct Verified: Sendable {
        package var credentialID: Data
        package var authenticatorData: AuthenticatorData
        package var publicKey: COSEKey
        package var attestationFormat: String
        package var transports: [String]
    }

    /// Runs the steps on `credential` for the `challenge` handed out (already taken from the store:
    /// single use). Throws the first refusal.
    package func verify(_ credential: RegistrationResponseJSON, challenge expected: String) throws(PasskeyRefusal) -> Verified {
        // Step 3: a public-key credential with an attestation response.
        guard credential.type == "public-key" else { throw .malformedCredential("type must be public-key") }
        guard let rawID = Base64URL.decode(credential.rawId), !rawID.isEmpty, Base64URL.encode(rawID) == credential.id else {
            throw .malformedCredential("id and rawId must be the same base64url credential id")
        }
        guard let clientDataJSON = Base64URL.decode(credential.response.clientDataJSON),
            let attestationBytes = Base64URL.decode(credential.response.attestationObject)
        else { throw .malformedCredential("clientDataJSON and attestationObject must be base64url") }
        // Steps 5–6: UTF-8 decode (BOM stripped) and parse.
        guard let clientData = CollectedClientData.parse(clientDataJSON) else { throw .malformedClientData }
        try ClientDataChecks.verify(clientData, type: WebAuthn.createType, challenge: expected, relyingParty: relyingParty)
        // Step 12: the hash of clientDataJSON.
        let clientDataHash = Data(SHA256.hash(data: clientDataJSON))
        // Step 13: CBOR-decode the attestation object.
        let attestation: AttestationObject
        do {
            attestation = try AttestationObject(attestationBytes)
        } catch .authenticatorData(.unsupportedPublicKey(let keyError)) {
            // Step 20 (an algorithm not offered), found while reading the key.
            throw .unsupportedAlgorithm(keyError.description)
        } catch {
            throw .malformedAttestation(error.description)
        }
        let authData = attestation.authenticatorData
        // Step 16: Sesame registers with UV `preferred` and records it (`uvInitialized`); a
        // first-factor sign-in requires it (§7.2 step 17).
        try AuthenticatorDataChecks.verify(authData, relyingParty: relyingParty, requiresUserVerification: false)
        // Steps 18–19: BE and BS are recorded (the key kind, docs/passkeys.md).
        // Step 20: the credential's algorithm was one offered in pubKeyCredParams.
        guard let attested = authData.attestedCredential else {
            throw .malformedAttestation("the authenticator data has no attested credential (AT)")
        }
        guard PasskeyPolicy.algorithms.contains(attested.publicKey.algorithm) else {
            throw .unsupportedAlgorithm("\(attested.publicKey.algorithm)")
        }
        // Steps 21–24: the attestation statement format and its verification.
        try verifyStatement(attestation, credential: attested, clientDataHash: clientDataHash)
        // Step 25 (also checked while parsing, §6.5.1).
        guard attested.credentialID.count <= AuthenticatorData.maximumCredentialIDLength else {
            throw .credentialIDTooLong
        }
        guard attested.credentialID == rawID else {
            throw .malformedCredential("rawId is not the credential id of the authenticator data")
        }
        // Step 26 is the store's (a unique credential id, ``PasskeyRegistrations``).
        return Verified(
            credentialID: rawID, authenticatorData: authData, publicKey: attested.publicKey,
            attestationFormat: attestation.format == "packed" ? "packed" : "none",
            transports: (credential.response.transports ?? []).filter { $0.count <= 32 }.prefix(8).map { $0 })
    }

    /// Steps 21–22 (WebAuthn §8.7 `none`, §8.2 `packed` self attestation); step 24: other
    /// formats are accepted as `none`.
    private func verifyStatement(
        _ attestation: AttestationObject, credential: AuthenticatorData.AttestedCredential, clientDataHash: Data
    ) throws(PasskeyRefusal) {
        switch attestation.format {
        case "none":
            guard case .map(let members) = attestation.statement, members.isEmpty else {
                throw .attestationInvalid("a none attestation statement is an empty map")
            }
        case "packed":
            guard let alg = attestation.statement[.text("alg")]?.int,
                case .bytes(let signature) = attestation.statement[.text("sig")]
            else { throw .attestationInvalid("packed needs alg and sig") }
            // Full attestation (x5c) carries a certificate chain Sesame does not evaluate: as none.
            if attestation.statement[.text("x5c")] != nil { return }
            guard alg == credential.publicKey.algorithm.rawValue else {
                throw .attestationInvalid("packed self attestation alg differs from the credential's")
            }
            guard
                PasskeySignature.verify(
                    signature, key: credential.publicKey, authenticatorData: attestation.authenticatorData.raw,
                    clientDataHash: clientDataHash)
            else { throw .attestationInvalid("the packed self-attestation signature does not verify") }
        default:
            return
        }
    }
}

/// The client-data steps shared by both ceremonies (§7.1 steps 7–11, §7.2 steps 10–14).
package enum ClientDataChecks {
    package static func verify(
        _ clientData: CollectedClientData, type: String, challenge expected: String, relyingParty: RelyingParty
    ) throws(PasskeyRefusal) {
        // §7.1 step 7 / §7.2 step 10.
        guard clientData.type == type else { throw .wrongType(clientData.type) }
        // §7.1 step 8 / §7.2 step 11 (the record was found by this value; compared again here).
        guard ConstantTime.equals(clientData.challenge, expected) else { throw .challenge("not the one handed out") }
        // §7.1 step 9 / §7.2 step 12: exact match (§13.4.9).
        guard relyingParty.origins.contains(clientData.origin) else { throw .wrongOrigin(clientData.origin) }
        // §7.1 steps 10–11 / §7.2 steps 13–14: Sesame's pages are never framed (CSP frame-ancestors 'none').
        if clientData.crossOrigin == true || clientData.topOrigin != nil { throw .crossOrigin }
    }
}

/// The authenticator-data steps shared by both ceremonies (§7.1 steps 14–17, §7.2 steps 15–18).
package enum AuthenticatorDataChecks {
    package static func verify(
        _ authData: AuthenticatorData, relyingParty: RelyingParty, requiresUserVerification: Bool
    ) throws(PasskeyRefusal) {
        // §7.1 step 14 / §7.2 step 15.
        guard ConstantTime.equals(authData.rpIDHash, relyingParty.idHash) else { throw .wrongRelyingParty }
        // §7.1 step 15 / §7.2 step 16 (Sesame never uses conditional create).
        guard authData.flags.contains(.userPresent) else { throw .userNotPresent }
        // §7.1 step 16 / §7.2 step 17.
        if requiresUserVerification, !authData.flags.contains(.userVerified) { throw .userNotVerified }
        // §7.1 step 17 / §7.2 step 18.
        if !authData.flags.contains(.backupEligible), authData.flags.contains(.backedUp) {
            throw .backupStateWithoutEligibility
        }
    }
}
