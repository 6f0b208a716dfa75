import Crypto
import SesameProtocol

/// Random tokens for the fixtures (the protocol module keeps its `SecureRandom` to Sesame's own
/// package): 32 random bytes by default, base64url like the server's own tokens.
enum FixtureTokens {
    static func token(byteCount: Int = 32) -> String {
        Base64URL.encode(SymmetricKey(size: SymmetricKeySize(bitCount: byteCount * 8)).withUnsafeBytes { Array($0) })
    }
}
