import Foundation
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds DPoP proofs (RFC 9449 §4.2) and remembers the nonces servers hand out (§8.1, §9):
/// one proof per request, never reused (a fresh random `jti`), `iat` on the server's clock (the
/// SDK's ``ServerClockOffset``, so a device with a wrong clock is not refused), `htu` the
/// request's URL without query and fragment, `ath` with an access token, and the origin's
/// latest nonce.
final class DPoPProofSigner: Sendable {
    private let nonces = LockedState<[String: String]>([:])

    /// A proof for `request` signed by `key`.
    func proof(for request: URLRequest, key: any DPoPKey, accessToken: String?, now: Date) throws(SesameError) -> String {
        guard let url = request.url else { throw .invalidConfiguration("the request has no URL") }
        var header: [String: Any] = ["typ": DPoP.proofType, "alg": key.algorithm]
        header["jwk"] = key.publicJWK
        var claims: [String: Any] = [
            "jti": SecureRandom.token(byteCount: 16), "htm": request.httpMethod ?? "GET", "htu": Self.targetURI(url),
            "iat": Int(now.timeIntervalSince1970),
        ]
        if let accessToken { claims["ath"] = DPoP.accessTokenHash(accessToken) }
        if let nonce = nonce(for: url) { claims["nonce"] = nonce }
        do {
            let input =
                Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) + "."
                + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
            return input + "." + Base64URL.encode(try key.sign(Data(input.utf8)))
        } catch {
            throw .technical(.storage("the DPoP key could not sign a proof: \(error)"))
        }
    }

    /// Remembers the `DPoP-Nonce` of a response for later proofs to its origin (§8.2, §9).
    /// Returns whether the response carried a new nonce.
    @discardableResult
    func learn(from response: HTTPURLResponse) -> Bool {
        guard let nonce = response.value(forHTTPHeaderField: DPoP.nonceHeader), !nonce.isEmpty, nonce.utf8.count <= 1024,
            let origin = response.url.flatMap(Self.origin)
        else { return false }
        return nonces.withLock { table in
            let changed = table[origin] != nonce
            table[origin] = nonce
            return changed
        }
    }

    /// Whether `response` asks for a proof with the server's nonce (§8: `use_dpop_nonce` in the
    /// JSON body at the token endpoint, §9: in `WWW-Authenticate` at a resource).
    static func asksForNonce(_ response: HTTPURLResponse, body: Data) -> Bool {
        if response.statusCode == 401,
            let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate"),
            challenge.contains(DPoP.useNonceError)
        {
            return true
        }
        guard response.statusCode == 400 else { return false }
        return (try? JSONDecoder().decode(APIError.self, from: body))?.error == DPoP.useNonceError
    }

    private func nonce(for url: URL) -> String? {
        guard let origin = Self.origin(url) else { return nil }
        return nonces.withLock { $0[origin] }
    }

    /// RFC 9449 §4.2 `htu`: the URL without query and fragment.
    static func targetURI(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    private static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }
}
