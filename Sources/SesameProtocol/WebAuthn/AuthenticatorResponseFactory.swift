import Crypto
import Foundation

/// Writes WebAuthn responses byte for byte as a client and authenticator do (WebAuthn Level 3
/// §5.8.1.1 client data, §6.1 authenticator data, §6.5.4 attestation object, §6.3.3 assertion
/// signature over `authData ‖ SHA-256(clientDataJSON)`), for a P-256 key (ES256, DER signatures),
/// an Ed25519 key (EdDSA), or any key given as its COSE form and a signing function (RS256 in tests).
///
/// The SDK's software authenticator uses it with what it really did; tests use it to break
/// exactly one rule (another origin, a lowered counter, a missing flag) and see the server
/// refuse that rule.
public struct AuthenticatorResponseFactory: Sendable {
    /// What goes into a response; the defaults are an honest, user-verified authenticator.
    public struct Parameters: Sendable {
        /// Client data `origin` (§5.8.1), e.g. `https://example.com`: where the ceremony says it ran.
        public var origin: String
        /// The RP ID whose SHA-256 opens the authenticator data (§6.1 `rpIdHash`).
        public var rpID: String
        /// §6.1 flags; `AT` is set for a registration and cleared for an assertion.
        public var flags: AuthenticatorData.Flags
        /// §6.1 signature counter; 0 says the authenticator keeps none.
        public var signCount: UInt32
        /// §6.5.1 AAGUID written into a registration.
        public var aaguid: Data
        /// Overrides `type` of the client data (tests).
        public var clientDataType: String?
        /// Client data `crossOrigin` (§5.8.1); `nil` writes `false`.
        public var crossOrigin: Bool?

        /// Parameters for `origin` and `rpID`; by default user present and verified, counter 0, and
        /// Sesame's software authenticator AAGUID.
        public init(
            origin: String, rpID: String, flags: AuthenticatorData.Flags = [.userPresent, .userVerified],
            signCount: UInt32 = 0, aaguid: Data = WebAuthn.softwareAuthenticatorAAGUID
        ) {
            self.origin = origin
            self.rpID = rpID
            self.flags = flags
            self.signCount = signCount
            self.aaguid = aaguid
        }
    }

    /// `none`, or `packed` self attestation (§8.2, signed with the credential key itself).
    public enum Attestation: Sendable {
        /// Format `none` with an empty `attStmt` (§8.7).
        case none
        /// Format `packed`, self attestation: `alg` and `sig` by the credential key, no `x5c` (§8.2).
        case packedSelf
    }

    /// The credential public key (COSE_Key, §6.5.1.1).
    public let publicKey: COSEKey
    /// The public key as a COSE_Key (RFC 9053 §7), as a relying party stores it.
    public var encodedPublicKey: Data { CBOREncoder.encode(publicKey.cbor) }
    /// The credential id: written into the attested credential data and as the responses' `id`
    /// and `rawId`.
    public let credentialID: Data
    private let sign: @Sendable (Data) throws -> Data

    /// A key of any algorithm: its COSE form, and the signature §6.5.6 says for it.
    public init(publicKey: COSEKey, credentialID: Data, sign: @escaping @Sendable (Data) throws -> Data) {
        self.publicKey = publicKey
        self.credentialID = credentialID
        self.sign = sign
    }

    /// ES256: P-256, DER-encoded ECDSA signatures over SHA-256.
    public init(key: P256.Signing.PrivateKey, credentialID: Data) {
        let raw = key.publicKey.rawRepresentation
        self.init(publicKey: .es256(x: Data(raw.prefix(32)), y: Data(raw.suffix(32))), credentialID: credentialID) {
            try key.signature(for: $0).derRepresentation
        }
    }

    /// EdDSA: Ed25519, the 64 raw signature bytes.
    public init(key: Curve25519.Signing.PrivateKey, credentialID: Data) {
        self.init(publicKey: .ed25519(x: key.publicKey.rawRepresentation), credentialID: credentialID) {
            try key.signature(for: $0)
        }
    }

    /// The answer to `navigator.credentials.create()` for `challenge`.
    public func registration(
        challenge: String, _ parameters: Parameters, attestation: Attestation = .none, transports: [String] = ["internal"]
    ) throws -> RegistrationResponseJSON {
        let clientData = clientDataJSON(type: WebAuthn.createType, challenge: challenge, parameters)
        let authData = AuthenticatorData.encode(
            rpIDHash: Data(SHA256.hash(data: Data(parameters.rpID.utf8))), flags: parameters.flags,
            signCount: parameters.signCount,
            credential: AuthenticatorData.AttestedCredential(
                aaguid: parameters.aaguid, credentialID: credentialID, publicKey: publicKey))
        let statement: CBOR
        switch attestation {
        case .none:
            statement = .map([])
        case .packedSelf:
            let signature = try sign(authData + Data(SHA256.hash(data: clientData)))
            let alg = publicKey.algorithm.rawValue
            statement = .map([(.text("alg"), .negative(UInt64(-1 - alg))), (.text("sig"), .bytes(signature))])
        }
        let object = AttestationObject.encode(
            format: attestation == .none ? "none" : "packed", statement: statement, authenticatorData: authData)
        let id = Base64URL.encode(credentialID)
        return RegistrationResponseJSON(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(clientData), attestationObject: Base64URL.encode(object),
                transports: transports),
            authenticatorAttachment: "platform")
    }

    /// The answer to `navigator.credentials.get()` for `challenge`.
    public func assertion(challenge: String, userHandle: Data?, _ parameters: Parameters) throws -> AuthenticationResponseJSON {
        let clientData = clientDataJSON(type: WebAuthn.getType, challenge: challenge, parameters)
        let authData = AuthenticatorData.encode(
            rpIDHash: Data(SHA256.hash(data: Data(parameters.rpID.utf8))), flags: parameters.flags,
            signCount: parameters.signCount)
        let signature = try sign(authData + Data(SHA256.hash(data: clientData)))
        let id = Base64URL.encode(credentialID)
        return AuthenticationResponseJSON(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(clientData), authenticatorData: Base64URL.encode(authData),
                signature: Base64URL.encode(signature), userHandle: userHandle.map { Base64URL.encode($0) }),
            authenticatorAttachment: "platform")
    }

    private func clientDataJSON(type: String, challenge: String, _ parameters: Parameters) -> Data {
        CollectedClientData(
            type: parameters.clientDataType ?? type, challenge: challenge, origin: parameters.origin,
            crossOrigin: parameters.crossOrigin ?? false
        ).serialized
    }
}
