import SesameStore
import Foundation

/// Failures of the ``KeyRing``. Messages say what to do.
public enum KeyRingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The algorithm is not one of ``SigningAlgorithm``.
    case unsupportedAlgorithm(String)
    /// No key of the algorithm is active (``KeyRing/ensureKeys()`` was not called?).
    case noActiveKey(algorithm: String)
    /// A stored key could not be unsealed or parsed.
    case unreadableKey(kid: String, reason: String)
    /// The token is not a compact JWS with a `kid` header.
    case malformedToken(reason: String)
    /// The token names a key that is not (or no longer) published.
    case unknownKey(kid: String)
    /// The signature does not verify with the named key.
    case invalidSignature

    public var description: String {
        switch self {
        case .unsupportedAlgorithm(let name):
            "the signing algorithm \"\(name)\" is not supported; use RS256 or ES256"
        case .noActiveKey(let algorithm):
            "no active \(algorithm) signing key; start the server (it creates keys) or run `sesame keys rotate`"
        case .unreadableKey(let kid, let reason):
            "signing key \(kid) cannot be read (\(reason)); the data directory's master.key must be the one that sealed the keys: restore it from a backup, or remove the database to start over"
        case .malformedToken(let reason):
            "the token is not a signed JWT (\(reason)); obtain a new token"
        case .unknownKey(let kid):
            "the token was signed by key \(kid), which is not published (expired or foreign); obtain a new token"
        case .invalidSignature:
            "the token's signature is invalid; obtain a new token"
        }
    }
}
