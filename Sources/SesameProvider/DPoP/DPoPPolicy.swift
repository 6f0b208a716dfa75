import Foundation
import SesameProtocol

/// The operator's settings for DPoP (RFC 9449): whether proofs must carry a server nonce, and
/// how old a proof may be. Tokens are bound whenever a client sends a proof; a client registered
/// with `dpop_bound_access_tokens` must send one (§5.2).
public struct DPoPPolicy: Sendable, Equatable {
    /// Whether every proof must carry a nonce from a `DPoP-Nonce` header (§8): a proof signed
    /// ahead of time by a thief of the device's key is then useless once the nonce changes.
    /// Default `false`.
    public var requireNonce: Bool
    /// How long a nonce is accepted (§8.2 lets the server choose). Default 5 minutes.
    public var nonceLifetime: TimeInterval
    /// How old a proof's `iat` may be (§11.1: bounds how long a `jti` is kept). Default 5 minutes.
    public var proofMaximumAge: TimeInterval
    /// How far ahead of the server's clock a proof's `iat` may be. Default 1 minute.
    public var proofMaximumFutureSkew: TimeInterval
    /// The proof algorithms accepted (asymmetric only), `dpop_signing_alg_values_supported`.
    public var algorithms: [String]

    public init(
        requireNonce: Bool = false, nonceLifetime: TimeInterval = 300, proofMaximumAge: TimeInterval = 300,
        proofMaximumFutureSkew: TimeInterval = 60, algorithms: [String] = DPoP.signingAlgorithms
    ) {
        self.requireNonce = requireNonce
        self.nonceLifetime = nonceLifetime
        self.proofMaximumAge = proofMaximumAge
        self.proofMaximumFutureSkew = proofMaximumFutureSkew
        self.algorithms = algorithms.filter { DPoP.signingAlgorithms.contains($0) }
    }
}
