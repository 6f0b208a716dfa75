import Foundation
import SesameProtocol

/// Checks a DPoP proof JWT (RFC 9449 §4.2) by the rules of §4.3 that need nothing but the
/// request: the shared part of the authorization server's `/token` and `/userinfo` and the
/// resource-server library. What needs state is the caller's: the `jti` seen once (§11.1), the
/// server's nonce (§8) and the key a token is bound to (§7.1, `cnf.jkt`).
///
/// Rules, in the order of §4.3 and each with its own ``DPoPProofRefusal/Rule``:
/// 2. a compact JWS of at most ``maximumLength`` bytes;
/// 3. `typ`, `alg`, `jwk` in the header and `jti`, `htm`, `htu`, `iat` in the claims;
/// 4. `typ` is `dpop+jwt`;
/// 5. `alg` is asymmetric and one of ``algorithms`` (never `none` or a MAC);
/// 6. the signature verifies with the header's `jwk`, whose type and curve fit `alg`;
/// 7. the `jwk` has no private members;
/// 8. `htm` is the request's method;
/// 9. `htu` is the request's URI without query and fragment, after the syntax- and scheme-based
///    normalization of RFC 3986 §6.2.2-6.2.3 (case of scheme and host, default port, empty path);
/// 11. `iat` is at most ``maximumAge`` old and at most ``maximumFutureSkew`` ahead;
/// 12. with an access token, `ath` is its hash (§4.2).
package struct DPoPProofVerifier: Sendable {
    /// The `alg` values accepted: asymmetric only, whatever the caller passes.
    package let algorithms: Set<String>
    /// How old `iat` may be; the `jti` must be remembered this long (plus ``maximumFutureSkew``).
    package let maximumAge: TimeInterval
    /// How far ahead `iat` may be: the client's clock skew.
    package let maximumFutureSkew: TimeInterval
    /// Proofs longer than this are refused unread (an RSA 4096 key's proof is about 1.5 KB).
    package static let maximumLength = 8 * 1024
    /// The keys of recent proof headers: a client signs every proof with the same key and the
    /// same header bytes, so the header's JSON and the key's point are checked once, not per
    /// request. The signature is verified every time.
    private let keys = DPoPKeyCache()

    package init(
        algorithms: Set<String> = Set(DPoP.signingAlgorithms), maximumAge: TimeInterval = 300,
        maximumFutureSkew: TimeInterval = 60
    ) {
        self.algorithms = algorithms.intersection(DPoP.signingAlgorithms)
        self.maximumAge = max(0, maximumAge)
        self.maximumFutureSkew = max(0, maximumFutureSkew)
    }

    /// The proof's key thumbprint and claims once every rule above holds.
    /// - Parameters:
    ///   - proof: the value of the request's one `DPoP` header.
    ///   - method: the request's method, e.g. `POST`.
    ///   - url: the request's absolute URL as the client addressed it.
    ///   - accessToken: the access token presented with the proof (at a resource), or `nil`.
    package func verify(_ proof: String, method: String, url: String, accessToken: String?, now: Date)
        throws(DPoPProofRefusal) -> VerifiedDPoPProof
    {
        guard proof.utf8.count <= Self.maximumLength else {
            throw DPoPProofRefusal(.malformed, "the DPoP proof is longer than \(Self.maximumLength) bytes")
        }
        guard let jws = CompactJWS(proof), let headerBytes = Base64URL.decode(bytes: jws.header),
            let payload = Base64URL.decode(bytes: jws.payload), let signature = Base64URL.decode(bytes: jws.signature)
        else {
            throw DPoPProofRefusal(.malformed, "the DPoP proof is not a compact JWS of three base64url parts")
        }
        let header: JOSEHeader
        do { header = try JOSEHeader(json: headerBytes) } catch {
            throw DPoPProofRefusal(.malformed, "the DPoP proof header is not a valid JSON object")
        }
        guard let typ = header.typ, typ.lowercased() == DPoP.proofType else {
            throw DPoPProofRefusal(.type, "typ is \(header.typ.map { "'\($0.prefix(40))'" } ?? "absent"), not dpop+jwt")
        }
        guard let alg = header.alg, algorithms.contains(alg) else {
            throw DPoPProofRefusal(
                .algorithm,
                "alg \(header.alg.map { "'\($0.prefix(20))'" } ?? "(missing)") is not accepted; use one of \(algorithms.sorted().joined(separator: ", "))"
            )
        }
        if let critical = header.crit, !critical.isEmpty {
            throw DPoPProofRefusal(.malformed, "the DPoP proof names critical header parameters this server does not understand")
        }
        let key = try keys.key(forHeader: jws.header) { () throws(DPoPProofRefusal) in
            try DPoPPublicKey(header: headerBytes, alg: alg)
        }
        let valid = jws.signingInput.withUnsafeBytes { key.verifier.verify(signature, over: $0) }
        guard valid else { throw DPoPProofRefusal(.signature, "the DPoP proof's \(alg) signature does not verify with its jwk") }
        let claims = try DPoPProofClaims(payload)
        guard claims.htm == method else {
            throw DPoPProofRefusal(.method, "htm is '\(claims.htm.prefix(20))', but the request is \(method)")
        }
        // The client's own spelling of the URL is nearly always the server's: compared as bytes
        // first, normalized only when they differ.
        guard claims.htu == url || DPoPTargetURI.normalized(claims.htu).map({ $0 == DPoPTargetURI.normalized(url) }) == true
        else {
            throw DPoPProofRefusal(.uri, "htu '\(claims.htu.prefix(200))' is not this request's URI \(DPoPTargetURI.normalized(url) ?? url)")
        }
        let age = now.timeIntervalSince(claims.iat)
        guard age <= maximumAge else {
            throw DPoPProofRefusal(.issuedAt, "iat is \(Int(age)) s old; proofs are accepted for \(Int(maximumAge)) s: sign a fresh one (check the device clock)")
        }
        guard -age <= maximumFutureSkew else {
            throw DPoPProofRefusal(.issuedAt, "iat is \(Int(-age)) s in the future; check the device clock")
        }
        if let accessToken {
            guard let ath = claims.ath else {
                throw DPoPProofRefusal(.accessTokenHash, "the proof has no ath, which is required with an access token")
            }
            guard ConstantTime.equals(ath, DPoP.accessTokenHash(accessToken)) else {
                throw DPoPProofRefusal(.accessTokenHash, "ath is not the hash of the access token presented")
            }
        }
        return VerifiedDPoPProof(
            thumbprint: key.thumbprint, jti: claims.jti, issuedAt: claims.iat, nonce: claims.nonce, algorithm: alg)
    }
}

/// A proof that passed ``DPoPProofVerifier``: the key's RFC 7638 thumbprint (the `jkt` tokens are
/// bound to) and the claims the caller checks with its own state.
package struct VerifiedDPoPProof: Sendable, Equatable {
    /// RFC 7638 SHA-256 thumbprint of the proof's public key.
    package let thumbprint: String
    /// The proof's unique identifier, to be seen once (§11.1).
    package let jti: String
    package let issuedAt: Date
    /// The server-provided nonce the proof carries (§8), if any.
    package let nonce: String?
    package let algorithm: String
}

/// A refused DPoP proof: which rule of RFC 9449 §4.3 failed and why, for `error_description`.
package struct DPoPProofRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Rule: String, Sendable {
        case malformed, type, algorithm, key, signature, claims, method, uri, issuedAt, accessTokenHash
    }

    package let rule: Rule
    package let reason: String

    package init(_ rule: Rule, _ reason: String) {
        self.rule = rule
        self.reason = reason
    }

    package var description: String { reason }
}

/// The `htu` comparison of RFC 9449 §4.3 item 9: an http(s) URI without query and fragment,
/// scheme and host in lower case, the scheme's default port dropped, an empty path as `/`.
package enum DPoPTargetURI {
    package static func normalized(_ uri: String) -> String? {
        guard uri.utf8.count <= 2048, var components = URLComponents(string: uri),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = components.percentEncodedHost, !host.isEmpty
        else { return nil }
        components.scheme = scheme
        components.percentEncodedHost = host.lowercased()
        if (scheme == "https" && components.port == 443) || (scheme == "http" && components.port == 80) {
            components.port = nil
        }
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        components.user = nil
        components.password = nil
        return components.string
    }
}

/// The parsed keys of recent DPoP proof headers, by the header's exact bytes (which name `alg`
/// and the `jwk`): bounded, emptied when full.
final class DPoPKeyCache: Sendable {
    private let entries = LockedState<[ArraySlice<UInt8>: DPoPPublicKey]>([:])
    static let capacity = 1024

    func key(forHeader header: ArraySlice<UInt8>, parse: () throws(DPoPProofRefusal) -> DPoPPublicKey)
        throws(DPoPProofRefusal) -> DPoPPublicKey
    {
        if let cached = entries.withLock({ $0[header] }) { return cached }
        let key = try parse()
        entries.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[header] = key
        }
        return key
    }
}
