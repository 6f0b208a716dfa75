import Testing

@testable import SesameProvider

/// ``DeviceSecret``: the Native SSO `ds_hash` (draft 07 §3.4.1), computed like `at_hash`.
@Suite("Native SSO device secret")
struct DeviceSecretTests {
    @Test("ds_hash is base64url of the left half of SHA-256 of the ASCII secret")
    func dsHash() {
        // Expected value from Python's hashlib, an implementation of its own.
        #expect(DeviceSecret.hash("WrfXsJbYjTw3SZb3SNEJWEPOOoHhExW6xwrZq-XX80c") == "pca792dYRoqkV1B-heFUEg")
        let (secret, _) = DeviceSecret.new()
        #expect(DeviceSecret.hash(secret) == TokenIssuer.atHash(secret))
    }
}
