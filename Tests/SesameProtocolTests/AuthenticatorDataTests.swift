import Foundation
import SesameProtocol
import Testing

/// COSE credential keys (RFC 9053) and authenticator data (WebAuthn Level 3 §6.1, §6.5.1):
/// round trips, and each malformed or unsupported form refused with its reason.
@Suite("WebAuthn authenticator data and COSE keys")
struct AuthenticatorDataTests {
    static let es256 = COSEKey.es256(x: Data(repeating: 1, count: 32), y: Data(repeating: 2, count: 32))

    static func authenticatorData(
        flags: UInt8, count: UInt32 = 7, credentialID: Data = Data(repeating: 9, count: 16),
        key: CBOR = es256.cbor, extensions: CBOR? = nil, trailing: Data = Data()
    ) -> Data {
        var bytes = Data(repeating: 0xab, count: 32) + Data([flags]) + withUnsafeBytes(of: count.bigEndian) { Data($0) }
        if flags & 0x40 != 0 {
            bytes += Data(repeating: 0, count: 16) + Data([UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)])
            bytes += credentialID + CBOREncoder.encode(key)
        }
        if let extensions { bytes += CBOREncoder.encode(extensions) }
        return bytes + trailing
    }

    @Test("COSE keys round-trip for ES256, EdDSA and RS256; other algorithms, curves, types and lengths are refused")
    func coseKeys() throws {
        let rsa = COSEKey.rs256(n: Data(repeating: 0xc1, count: 256), e: Data([1, 0, 1]))
        for key in [Self.es256, .ed25519(x: Data(repeating: 3, count: 32)), rsa] {
            #expect(try COSEKey(try CBORDecoder().decode(CBOREncoder.encode(key.cbor))) == key)
        }
        func refused(_ pairs: [(CBOR, CBOR)]) -> COSEKeyError? {
            do {
                _ = try COSEKey(.map(pairs.map { (key: $0.0, value: $0.1) }))
                return nil
            } catch { return error }
        }
        let x: CBOR = .bytes(Data(repeating: 1, count: 32))
        #expect(refused([(.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(34))]) == .unsupportedAlgorithm(-35))
        #expect(refused([(.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(6))]) == .keyTypeMismatch(kty: 1, alg: -7))
        #expect(refused([(.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(6)), (.negative(0), .unsigned(2)), (.negative(1), x), (.negative(2), x)])
            == .wrongCurve("crv (-1) must be P-256 (1)"))
        #expect(refused([(.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(6)), (.negative(0), .unsigned(1)), (.negative(1), x)])
            == .missing("y (-3)"))
        #expect(refused([(.unsigned(1), .unsigned(3)), (.unsigned(3), .negative(256)), (.negative(0), .bytes(Data(count: 128))), (.negative(1), .bytes(Data([3])))])
            == .badLength("RSA keys have a 2048 to 4096-bit n and a short e"))
        #expect(refused([(.unsigned(3), .negative(6))]) == .missing("kty (1)"))
        #expect(throws: COSEKeyError.notAMap) { try COSEKey(.array([])) }
    }

    @Test("authenticator data: the fixed part, attested credential data and extensions read back; each malformed form refused")
    func parsing() throws {
        let extensions = CBOR.map([(.text("credProtect"), .unsigned(2))])
        let data = try AuthenticatorData(Self.authenticatorData(flags: 0x45 | 0x80, extensions: extensions))
        #expect(data.rpIDHash == Data(repeating: 0xab, count: 32) && data.signCount == 7)
        #expect(data.flags.contains([.userPresent, .userVerified, .attestedCredentialData, .extensionData]))
        #expect(!data.flags.contains(.backupEligible))
        #expect(data.attestedCredential?.credentialID == Data(repeating: 9, count: 16))
        #expect(data.attestedCredential?.publicKey == Self.es256)
        #expect(data.extensions == extensions)
        let assertion = try AuthenticatorData(Self.authenticatorData(flags: 0x1d, count: 42))
        #expect(assertion.attestedCredential == nil && assertion.signCount == 42 && assertion.flags.contains(.backedUp))

        #expect(throws: AuthenticatorDataError.tooShort) { try AuthenticatorData(Data(count: 36)) }
        #expect(throws: AuthenticatorDataError.trailingBytes) { try AuthenticatorData(Self.authenticatorData(flags: 0x01, trailing: Data([0]))) }
        #expect(throws: AuthenticatorDataError.credentialIDTooLong) {
            try AuthenticatorData(Self.authenticatorData(flags: 0x41, credentialID: Data(count: 1024)))
        }
        #expect(throws: AuthenticatorDataError.tooShort) {
            try AuthenticatorData(Self.authenticatorData(flags: 0x41).prefix(60))
        }
        #expect(throws: AuthenticatorDataError.unsupportedPublicKey(.unsupportedAlgorithm(-35))) {
            try AuthenticatorData(Self.authenticatorData(flags: 0x41, key: .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(34))])))
        }
        #expect(throws: AuthenticatorDataError.malformedPublicKey(CBORError.lengthBeyondInput(at: 0).description)) {
            try AuthenticatorData(Data(repeating: 0xab, count: 32) + Data([0x41, 0, 0, 0, 1]) + Data(count: 16) + Data([0, 1, 9, 0xa5]))
        }
        #expect(throws: AuthenticatorDataError.malformedExtensions("not a map")) {
            try AuthenticatorData(Self.authenticatorData(flags: 0x81, extensions: .array([])))
        }
    }
}
