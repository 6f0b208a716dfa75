import Foundation
import SesameProtocol

/// A provider's signing keys (RFC 7517 §5 JWK Set), parsed once into ready-to-use verifiers so
/// that validating an ID token does no key parsing.
///
/// Keys are indexed by `kid` and by algorithm. Each key only verifies the algorithms its type
/// allows (RSA: RS*/PS*; EC: the ES* of its curve; OKP Ed25519: EdDSA), or only its own `alg`
/// when the JWK names one, which rules out algorithm confusion. Symmetric (`oct`) keys,
/// encryption keys (`use: enc`) and keys of unknown types are skipped, never used.
public struct JWKSet: Sendable {
    struct Key: Sendable {
        let kid: String?
        let algorithms: [String: SignatureVerifier]
    }

    let keys: [Key]

    /// An empty set.
    public init() { keys = [] }

    init(keys: [Key]) { self.keys = keys }

    /// The key ids present (keys without `kid` are counted in ``count`` only).
    public var keyIDs: [String] { keys.compactMap(\.kid) }
    /// Number of usable signature keys.
    public var count: Int { keys.count }

    /// Whether a key with this `kid` is present.
    public func contains(kid: String) -> Bool { keys.contains { $0.kid == kid } }

    /// Parses a JWK Set document (RFC 7517 §5); unusable keys are skipped.
    public static func parse(_ json: Data) throws(JWKSetError) -> JWKSet {
        let document: LenientJWKS
        do {
            document = try JSONDecoder().decode(LenientJWKS.self, from: json)
        } catch {
            throw JWKSetError(reason: "the JWKS is not a JSON Web Key Set: \(error)")
        }
        var keys: [Key] = []
        for entry in document.keys where entry.use == nil || entry.use == "sig" {
            var algorithms: [String: SignatureVerifier] = [:]
            for alg in allowedAlgorithms(for: entry) {
                if let verifier = SignatureVerifier.make(
                    alg: alg, n: entry.n.flatMap(decode), e: entry.e.flatMap(decode), x: entry.x.flatMap(decode),
                    y: entry.y.flatMap(decode))
                {
                    algorithms[alg] = verifier
                }
            }
            if !algorithms.isEmpty { keys.append(Key(kid: entry.kid, algorithms: algorithms)) }
        }
        return JWKSet(keys: keys)
    }

    private static func decode(_ member: String) -> [UInt8]? {
        Base64URL.decode(member).map(Array.init)
    }

    /// The algorithms a key of this type may verify (RFC 7518 §3.1, RFC 8037 §3.1).
    private static func allowedAlgorithms(for entry: LenientJWKS.Entry) -> [String] {
        let byType: [String]
        switch (entry.kty, entry.crv) {
        case ("RSA", _): byType = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]
        case ("EC", "P-256"): byType = ["ES256"]
        case ("EC", "P-384"): byType = ["ES384"]
        case ("EC", "P-521"): byType = ["ES512"]
        case ("OKP", "Ed25519"): byType = ["EdDSA"]
        default: byType = []
        }
        guard let alg = entry.alg else { return byType }
        return byType.contains(alg) ? [alg] : []
    }

    /// The verifiers to try for a token header: the key named by `kid`, or every key allowing
    /// `alg` when the header has no `kid` (OIDC Core §10.1.1).
    package func verifiers(kid: String?, alg: String) -> KeyLookup {
        let matching = kid.map { kid in keys.filter { $0.kid == kid } } ?? keys
        if matching.isEmpty { return .unknownKey }
        let verifiers = matching.compactMap { $0.algorithms[alg] }
        return verifiers.isEmpty ? .algorithmNotAllowed : .found(verifiers)
    }

    package enum KeyLookup {
        case found([SignatureVerifier])
        case unknownKey
        case algorithmNotAllowed
    }
}

/// A document that is not a JSON Web Key Set (RFC 7517 §5): not JSON, or no `keys` array.
public struct JWKSetError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the document.
    public let reason: String

    /// The reason, for logs and error messages.
    public var description: String { reason }
}

/// A JWK Set decoded key by key, so one unsupported key does not reject the whole set. Only the
/// public members are read; a provider that wrongly publishes private ones has them ignored.
private struct LenientJWKS: Decodable {
    struct Entry: Decodable {
        var kty: String?
        var crv: String?
        var alg: String?
        var kid: String?
        var use: String?
        var n: String?
        var e: String?
        var x: String?
        var y: String?

        enum CodingKeys: String, CodingKey { case kty, crv, alg, kid, use, n, e, x, y }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            kty = try? c.decodeIfPresent(String.self, forKey: .kty)
            crv = try? c.decodeIfPresent(String.self, forKey: .crv)
            alg = try? c.decodeIfPresent(String.self, forKey: .alg)
            kid = try? c.decodeIfPresent(String.self, forKey: .kid)
            use = try? c.decodeIfPresent(String.self, forKey: .use)
            n = try? c.decodeIfPresent(String.self, forKey: .n)
            e = try? c.decodeIfPresent(String.self, forKey: .e)
            x = try? c.decodeIfPresent(String.self, forKey: .x)
            y = try? c.decodeIfPresent(String.self, forKey: .y)
        }
    }

    var keys: [Entry]
}
