import Crypto
import Foundation
import SesameProtocol
import Testing
@testable import Sesame

/// The mapping behind the Apple passkey adapter (``PlatformPasskeyMapping``), tested where it
/// compiles: options → the bytes AuthenticationServices takes; raw answers → the JSON the server
/// reads, byte for byte.
@Suite("Platform passkey mapping")
struct PlatformPasskeyMappingTests {
    static let creation = CredentialCreationOptionsJSON(
        rp: RelyingPartyEntity(id: "example.com", name: "Example"),
        user: UserEntityJSON(id: Base64URL.encode(Data("user-1".utf8)), name: "ada@example.com", displayName: "Ada"),
        challenge: Base64URL.encode(Data(repeating: 7, count: 32)), pubKeyCredParams: [CredentialParameters(alg: -7)],
        timeout: 300_000, excludeCredentials: [CredentialDescriptorJSON(id: Base64URL.encode(Data([1, 2, 3])))],
        authenticatorSelection: AuthenticatorSelection(residentKey: "required", requireResidentKey: true, userVerification: "required"),
        attestation: "none")

    @Test("creation options map to the RP ID, challenge, user id, name, UV preference and excluded ids as bytes")
    func registration() throws {
        let mapped = try PlatformPasskeyMapping.registration(Self.creation)
        #expect(mapped.relyingPartyID == "example.com")
        #expect(mapped.challenge == Data(repeating: 7, count: 32))
        #expect(mapped.userID == Data("user-1".utf8) && mapped.userName == "ada@example.com")
        #expect(mapped.userVerification == "required")
        #expect(mapped.excludedCredentialIDs == [Data([1, 2, 3])])
        var rsaOnly = Self.creation
        rsaOnly.pubKeyCredParams = [CredentialParameters(alg: -257)]
        #expect(throws: PasskeyAuthenticatorError.unsupportedAlgorithm) { try PlatformPasskeyMapping.registration(rsaOnly) }
        var broken = Self.creation
        broken.challenge = "not base64url!"
        #expect(throws: PasskeyAuthenticatorError.self) { try PlatformPasskeyMapping.registration(broken) }
    }

    @Test("a platform's raw answers become the JSON the server verifies, unchanged")
    func responses() throws {
        let factory = AuthenticatorResponseFactory(key: P256.Signing.PrivateKey(), credentialID: Data([9, 9, 9]))
        let parameters = AuthenticatorResponseFactory.Parameters(origin: "https://example.com", rpID: "example.com")
        let made = try factory.registration(challenge: Self.creation.challenge, parameters)
        let mapped = try PlatformPasskeyMapping.registrationResponse(
            credentialID: Data([9, 9, 9]), clientDataJSON: Base64URL.decode(made.response.clientDataJSON)!,
            attestationObject: Base64URL.decode(made.response.attestationObject)!)
        #expect(mapped.rawId == made.rawId && mapped.response.clientDataJSON == made.response.clientDataJSON)
        #expect(mapped.response.attestationObject == made.response.attestationObject)
        #expect(throws: PasskeyAuthenticatorError.self) {
            try PlatformPasskeyMapping.registrationResponse(credentialID: Data([9]), clientDataJSON: Data(), attestationObject: nil)
        }

        let request = CredentialRequestOptionsJSON(
            challenge: Base64URL.encode(Data(repeating: 5, count: 32)), timeout: nil, rpId: "example.com",
            allowCredentials: [CredentialDescriptorJSON(id: Base64URL.encode(Data([9, 9, 9])))], userVerification: "required")
        let assertionRequest = try PlatformPasskeyMapping.assertion(request)
        #expect(assertionRequest.allowedCredentialIDs == [Data([9, 9, 9])] && assertionRequest.challenge.count == 32)
        let signed = try factory.assertion(challenge: request.challenge, userHandle: Data("user-1".utf8), parameters)
        let answer = PlatformPasskeyMapping.assertionResponse(
            credentialID: Data([9, 9, 9]), clientDataJSON: Base64URL.decode(signed.response.clientDataJSON)!,
            authenticatorData: Base64URL.decode(signed.response.authenticatorData)!,
            signature: Base64URL.decode(signed.response.signature)!, userID: Data("user-1".utf8))
        #expect(answer == signed)
        #expect(PlatformPasskeyMapping.assertionResponse(
            credentialID: Data([1]), clientDataJSON: Data(), authenticatorData: Data(), signature: Data(), userID: Data()
        ).response.userHandle == nil, "an empty user handle is absent")
    }
}
