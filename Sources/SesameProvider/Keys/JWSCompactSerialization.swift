import SesameStore
import Foundation
import JWTKit
import SesameJOSE
import SesameProtocol

/// JWS Compact Serialization (RFC 7515 §7.1) around jwt-kit's signing algorithms, so that
/// signing and verification run on the caller's task, in parallel, instead of queueing on one
/// `JWTKeyCollection` actor.
package enum JWSCompactSerialization {
    /// `BASE64URL(header) . BASE64URL(payload) . BASE64URL(signature)` with header `alg`, `kid`,
    /// `typ` (RFC 7515 §4.1; `typ` per RFC 9068 §2.1 for access tokens).
    package static func sign(
        _ payload: some JWTPayload, kid: String, type: String, algorithm: any JWTAlgorithm
    ) throws -> String {
        let json = try (payload as? any DirectJSONPayload)?.directJSON() ?? Array(JWTJSON.encoder().encode(payload))
        let signingInput =
            try ProtectedHeaders.encoded(alg: algorithm.name, kid: kid, typ: type) + "." + Base64URL.encode(json)
        let signature = try algorithm.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    package struct Parts {
        package let kid: String
        package let alg: String
        /// The header's `typ` (RFC 7515 §4.1.9), when present.
        package let typ: String?
        /// `ASCII(BASE64URL(header) || '.' || BASE64URL(payload))`, what the signature covers.
        package let signingInput: ArraySlice<UInt8>
        package let payload: Data
        package let signature: [UInt8]
    }

    /// Splits a compact JWS and reads its protected header. Works on the token's UTF-8 bytes
    /// (``CompactJWS``, ``JOSEHeader``): a token is checked on every request that carries one,
    /// and splitting a `String` by `Character` walks grapheme clusters.
    package static func parse(_ token: String) throws -> Parts {
        guard let jws = CompactJWS(token) else {
            throw KeyRingError.malformedToken(reason: "expected 3 segments separated by dots")
        }
        guard let headerBytes = Base64URL.decode(bytes: jws.header),
            let payload = Base64URL.decode(bytes: jws.payload),
            let signature = Base64URL.decode(bytes: jws.signature)
        else { throw KeyRingError.malformedToken(reason: "a segment is not base64url") }
        guard let header = try? JOSEHeader(json: headerBytes) else {
            throw KeyRingError.malformedToken(reason: "the header is not a JSON object of string members")
        }
        guard let kid = header.kid, let alg = header.alg else {
            throw KeyRingError.malformedToken(reason: "the header has no kid or alg")
        }
        return Parts(
            kid: kid, alg: alg, typ: header.typ, signingInput: jws.signingInput, payload: Data(payload),
            signature: signature)
    }
}

/// A JWT payload that writes its JSON itself (``JSONObjectWriter``) rather than through
/// `JSONEncoder`: the payloads signed on every token request. Its `Encodable` conformance stays
/// the reference (tests compare the two), and the fallback when ``directJSON()`` gives `nil`.
package protocol DirectJSONPayload: JWTPayload {
    /// The payload's JSON object, or `nil` when a member needs the `Encodable` conformance.
    func directJSON() -> [UInt8]?
}

/// The base64url-encoded protected headers in use (RFC 7515 §4.1): one per algorithm, key and
/// token type, so each is encoded once instead of once per token.
package enum ProtectedHeaders {
    private static let cache = LockedState<[String: String]>([:])
    /// More distinct headers than this means keys rotated many times in one process: start over.
    private static let capacity = 64

    package static func encoded(alg: String, kid: String, typ: String) throws -> String {
        let key = alg + " " + kid + " " + typ
        if let cached = cache.withLock({ $0[key] }) { return cached }
        var header = JWTHeader()
        header.alg = alg
        header.kid = kid
        header.typ = typ
        let encoded = Base64URL.encode(try JWTJSON.encoder().encode(header))
        cache.withLock { headers in
            if headers.count >= capacity { headers.removeAll() }
            headers[key] = encoded
        }
        return encoded
    }
}

/// jwt-kit's JSON conventions: dates as seconds since 1970 (RFC 7519 §2 NumericDate).
package enum JWTJSON {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
