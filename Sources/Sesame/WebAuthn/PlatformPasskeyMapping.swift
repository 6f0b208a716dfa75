import Foundation
import SesameProtocol

/// The mapping between Sesame's WebAuthn JSON and a platform authenticator's native values
/// (AuthenticationServices' `ASAuthorizationPlatformPublicKeyCredentialProvider` takes the RP
/// ID, challenge, user id and credential ids as bytes, and answers with raw client data,
/// attestation object or authenticator data and signature). Kept here, compiled and tested on
/// every platform, so that `PlatformPasskeyAuthenticator` is only the thin call.
public enum PlatformPasskeyMapping {
    /// What a platform registration request needs (WebAuthn §5.4).
    public struct Registration: Sendable, Equatable {
        /// The RP ID (`rp.id`): the domain the passkey is bound to.
        public var relyingPartyID: String
        /// The server's one-time `challenge`, decoded from base64url, to be signed into the client data.
        public var challenge: Data
        /// The user handle (`user.id`), decoded: stored with the passkey and returned on assertion.
        public var userID: Data
        /// The account name (`user.name`) the platform shows for the passkey.
        public var userName: String
        /// `required`, `preferred` (the default when absent) or `discouraged` (WebAuthn §5.8.6).
        public var userVerification: String
        /// The ids of the account's existing passkeys (`excludeCredentials`), decoded, so the
        /// platform does not create a second one on the same authenticator.
        public var excludedCredentialIDs: [Data]
    }

    /// What a platform assertion request needs (WebAuthn §5.5).
    public struct Assertion: Sendable, Equatable {
        /// The RP ID (`rpId`) the passkey must be bound to.
        public var relyingPartyID: String
        /// The server's one-time `challenge`, decoded from base64url, to be signed into the client data.
        public var challenge: Data
        /// The acceptable credential ids (`allowCredentials`), decoded; empty lets the user pick any
        /// discoverable passkey for the RP ID.
        public var allowedCredentialIDs: [Data]
        /// `required`, `preferred` or `discouraged` (WebAuthn §5.8.6).
        public var userVerification: String
    }

    /// Platform passkeys are ES256; options that do not offer it cannot be answered.
    public static func registration(_ options: CredentialCreationOptionsJSON) throws(PasskeyAuthenticatorError) -> Registration {
        guard options.pubKeyCredParams.contains(where: { $0.alg == COSEKey.Algorithm.es256.rawValue }) else {
            throw .unsupportedAlgorithm
        }
        return Registration(
            relyingPartyID: options.rp.id, challenge: try bytes(options.challenge, "challenge"),
            userID: try bytes(options.user.id, "user.id"), userName: options.user.name,
            userVerification: options.authenticatorSelection?.userVerification ?? WebAuthn.UserVerification.preferred.rawValue,
            excludedCredentialIDs: try (options.excludeCredentials ?? []).map { descriptor throws(PasskeyAuthenticatorError) in
                try bytes(descriptor.id, "excludeCredentials[].id")
            })
    }

    /// The native values of the server's assertion options (WebAuthn §5.5). Throws
    /// `PasskeyAuthenticatorError.unavailable` when the challenge or a credential id is not base64url.
    public static func assertion(_ options: CredentialRequestOptionsJSON) throws(PasskeyAuthenticatorError) -> Assertion {
        Assertion(
            relyingPartyID: options.rpId, challenge: try bytes(options.challenge, "challenge"),
            allowedCredentialIDs: try options.allowCredentials.map { descriptor throws(PasskeyAuthenticatorError) in
                try bytes(descriptor.id, "allowCredentials[].id")
            },
            userVerification: options.userVerification)
    }

    /// The JSON of a platform registration (§5.1.8): its raw bytes, base64url, unchanged.
    public static func registrationResponse(
        credentialID: Data, clientDataJSON: Data, attestationObject: Data?, transports: [String] = ["internal", "hybrid"]
    ) throws(PasskeyAuthenticatorError) -> RegistrationResponseJSON {
        guard let attestationObject else {
            throw .unavailable("the platform returned no attestation object")
        }
        let id = Base64URL.encode(credentialID)
        return RegistrationResponseJSON(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(clientDataJSON), attestationObject: Base64URL.encode(attestationObject),
                transports: transports),
            authenticatorAttachment: "platform")
    }

    /// The JSON of a platform assertion (§5.1.8).
    public static func assertionResponse(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userID: Data?
    ) -> AuthenticationResponseJSON {
        let id = Base64URL.encode(credentialID)
        return AuthenticationResponseJSON(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(clientDataJSON), authenticatorData: Base64URL.encode(authenticatorData),
                signature: Base64URL.encode(signature), userHandle: userID.flatMap { $0.isEmpty ? nil : Base64URL.encode($0) }),
            authenticatorAttachment: "platform")
    }

    private static func bytes(_ text: String, _ member: String) throws(PasskeyAuthenticatorError) -> Data {
        guard let data = Base64URL.decode(text), !data.isEmpty else {
            throw .unavailable("the server's options have a malformed \(member)")
        }
        return data
    }
}
