import Crypto
import Foundation
import SesameProtocol

/// Nonces a resource server provides for DPoP proofs (RFC 9449 §9): with them, a proof must
/// carry a `nonce` this API issued and that has not expired, so a proof made ahead of time (by
/// malware holding the key for a while) is useless later. A request without one is refused with
/// `401`, `WWW-Authenticate: DPoP error="use_dpop_nonce"` and a fresh nonce in `DPoP-Nonce`; the
/// client signs again with it (Sesame's SDK does so by itself).
///
/// Stateless: a nonce is its expiry and 64 random bits under an HMAC-SHA-256 of ``secret``. Every
/// instance of an API given the same secret accepts the nonces any of them issued; with the
/// default (a random secret per process) only the issuing process does.
public struct DPoPResourceNonces: Sendable {
    /// The key of the nonces' MAC: share it across an API's instances.
    public let secret: SymmetricKey
    /// How long a nonce is accepted, in seconds (default 5 minutes).
    public let lifetime: TimeInterval

    /// - Parameters:
    ///   - secret: the MAC key; give the same 256-bit key to every instance of the API.
    ///   - lifetime: seconds a nonce is accepted after it is issued.
    public init(secret: SymmetricKey = SymmetricKey(size: .bits256), lifetime: TimeInterval = 300) {
        self.secret = secret
        self.lifetime = max(1, lifetime)
    }

    /// A fresh nonce for the `DPoP-Nonce` header: 8 bytes of expiry, 8 random, 16 of MAC.
    public func issue(now: Date = Date()) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        withUnsafeBytes(of: UInt64(max(0, now.timeIntervalSince1970 + lifetime)).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: SecureRandom.bytes(8))
        bytes.append(contentsOf: mac(bytes))
        return Base64URL.encode(bytes)
    }

    /// Whether `nonce` was issued with this secret and has not expired at `now`.
    public func accepts(_ nonce: String, now: Date = Date()) -> Bool {
        guard nonce.utf8.count == 43, let bytes = Base64URL.decode(nonce), bytes.count == 32 else { return false }
        let body = Array(bytes.prefix(16))
        guard ConstantTime.equals(Data(mac(body)), Data(bytes.suffix(16))) else { return false }
        let expiry = body.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(expiry) > now.timeIntervalSince1970
    }

    private func mac(_ body: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Data("sesame rs dpop nonce v1".utf8) + body, using: secret).prefix(16))
    }
}
