import Foundation
import JWTKit
import SesameResourceServer
import SesameTesting
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Counts the validator's fetches of the real server's discovery document and JWKS.
final class CountingTransport: KeySetTransport {
    private let inner = URLSessionKeySetTransport()
    private let counts = Mutex<[String: Int]>([:])

    func get(_ url: URL) async throws -> (status: Int, body: Data) {
        counts.withLock { $0[url.lastPathComponent, default: 0] += 1 }
        return try await inner.get(url)
    }

    /// Fetches of URLs whose last path component is `name` (`jwks.json`, `openid-configuration`).
    func count(_ name: String) -> Int { counts.withLock { $0[name, default: 0] } }
    var jwksFetches: Int { counts.withLock { $0.filter { $0.key != "openid-configuration" }.values.reduce(0, +) } }
}

/// A validator of the test server's tokens, on the server's clock.
func validator(
    for server: TestServer, transport: CountingTransport = CountingTransport(), issuer: String? = nil,
    audience: String? = nil, skew: TimeInterval = 0
) -> AccessTokenValidator {
    let clock = server.clock
    let now: @Sendable () -> Date = { clock.now().addingTimeInterval(skew) }
    return AccessTokenValidator(
        issuer: issuer ?? server.issuer, audience: audience ?? server.issuer,
        keys: JWKSCache(discoveringFrom: server.issuer, transport: transport, now: now), now: now)
}

/// A real access token: the backend fixture client's `client_credentials` grant over HTTP.
func clientCredentialsToken(_ server: TestServer, scope: String? = nil) async throws -> String {
    var form = ["grant_type": "client_credentials"]
    if let scope { form["scope"] = scope }
    let basic = Data("\(Fixtures.backend):\(Fixtures.backendSecret)".utf8).base64EncodedString()
    let response = try await server.client().postForm("/token", form, headers: ["Authorization": "Basic \(basic)"])
    guard response.status == 200 else { throw FixtureError("client_credentials answered \(response.status): \(response.text)") }
    let body = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
    guard let token = body?["access_token"] as? String else { throw FixtureError("no access_token") }
    return token
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Claims the tests shape freely and have the server's own key ring sign: a token the real
/// issuer signed, with one rule broken.
struct CraftedClaims: JWTPayload {
    var iss: String?
    var sub: String? = "user-1"
    var aud: [String]?
    var exp: Double?
    var iat: Double?
    var nbf: Double?
    var jti: String? = "crafted-\(UUID().uuidString)"
    var client_id: String? = "native-app"
    var scope: String? = "openid profile"

    init(server: TestServer) {
        let now = server.clock.now().timeIntervalSince1970.rounded()
        iss = server.issuer
        aud = [server.issuer]
        iat = now
        exp = now + 300
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A compact JWS with any header and payload JSON and a given signature (for `alg: none`, HMAC
/// confusion and tampering).
func compact(header: [String: Any], payload: Data, signature: [UInt8]) throws -> String {
    let headerJSON = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    return [headerJSON, payload, Data(signature)].map(base64url).joined(separator: ".")
}

func base64url(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

func decodeBase64URL(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64)
}

/// The rule a validation broke, or `nil` when it passed.
func rule(
    _ validator: AccessTokenValidator, _ token: String, scopes: [String] = []
) async -> AccessTokenRule? {
    do {
        _ = try await validator.validate(token, requiredScopes: scopes)
        return nil
    } catch {
        return error.rule
    }
}
