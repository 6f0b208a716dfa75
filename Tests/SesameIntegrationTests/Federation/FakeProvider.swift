import Crypto
import Foundation
import Hummingbird
import JWTKit
import SesameProtocol
import Synchronization

/// A stand-in for Google or Apple (outside our control, so faked, but over real HTTP): an
/// ES256 key whose JWKS it serves at `/jwks` with `Cache-Control: max-age=3600`, and tokens of
/// the provider's real shapes that it signs. It counts JWKS fetches, and can rotate its key.
final class FakeProvider: Sendable {
    let issuer: String
    let port: Int
    private let task: Task<Void, any Error>
    private let state: KeyState

    /// The provider's key, shared with its HTTP handler.
    final class KeyState: Sendable {
        let value = Mutex((key: P256.Signing.PrivateKey(), kid: "k1", fetches: 0))
        /// Facebook: access token → what `debug_token` and `/me` say about it.
        let facebook = Mutex<[String: FacebookToken]>([:])
        /// The JWKS answer's `Cache-Control`.
        let cacheControl = Mutex("public, max-age=3600")
        /// Facebook: the app access token `debug_token` requires.
        let appToken = Mutex<String?>(nil)
        func withLock<T>(_ body: (inout (key: P256.Signing.PrivateKey, kid: String, fetches: Int)) -> T) -> T {
            value.withLock { body(&$0) }
        }
    }

    var jwksURI: String { "http://127.0.0.1:\(port)/jwks" }
    var fetches: Int { state.withLock { $0.fetches } }

    static func start(issuer: String) async throws -> FakeProvider {
        let state = KeyState()
        let router = Router()
        router.get("/jwks") { _, _ -> Response in
            let (key, kid) = state.withLock { s -> (P256.Signing.PrivateKey, String) in
                s.fetches += 1
                return (s.key, s.kid)
            }
            var response = Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: FakeProvider.jwks(key.publicKey, kid: kid))))
            response.headers[.cacheControl] = state.cacheControl.withLock { $0 }
            return response
        }
        // Facebook's Graph API shapes (debug_token and /me).
        router.get("/debug_token") { request, _ -> Response in
            let query = request.uri.queryParameters
            guard let app = query["access_token"].map(String.init), app == state.appToken.withLock({ $0 }) else {
                return FakeProvider.json(#"{"error":{"message":"Invalid OAuth access token.","code":190}}"#, status: .badRequest)
            }
            let input = query["input_token"].map(String.init) ?? ""
            guard let token = state.facebook.withLock({ $0[input] }) else {
                return FakeProvider.json(#"{"data":{"is_valid":false,"error":{"code":190,"message":"Invalid OAuth access token."}}}"#)
            }
            return FakeProvider.json(
                #"{"data":{"app_id":"\#(token.appID)","type":"USER","application":"Fake","expires_at":\#(token.expiresAt),"is_valid":\#(token.valid),"scopes":["email","public_profile"],"user_id":"\#(token.userID)"}}"#)
        }
        router.get("/me") { request, _ -> Response in
            let input = request.uri.queryParameters["access_token"].map(String.init) ?? ""
            guard let token = state.facebook.withLock({ $0[input] }) else {
                return FakeProvider.json(#"{"error":{"message":"Invalid OAuth access token.","code":190}}"#, status: .badRequest)
            }
            let email = token.email.map { #","email":"\#($0)""# } ?? ""
            return FakeProvider.json(#"{"id":"\#(token.profileID ?? token.userID)","name":"\#(token.name)"\#(email)}"#)
        }
        let (bound, task) = try await LoopbackApplication.start(router, what: "the fake provider")
        return FakeProvider(issuer: issuer, port: bound, task: task, state: state)
    }

    private init(issuer: String, port: Int, task: Task<Void, any Error>, state: KeyState) {
        self.issuer = issuer
        self.port = port
        self.task = task
        self.state = state
    }

    func stop() { task.cancel() }

    /// What the fake Facebook says about an access token.
    struct FacebookToken: Sendable {
        var appID: String
        var userID: String
        var valid = true
        var expiresAt = Int(Date().timeIntervalSince1970) + 3_600
        var email: String?
        var name = "Fay Book"
        /// A `/me` answer for another user than the inspected one (a swapped token).
        var profileID: String?
    }

    /// Issues a Facebook access token the fake will describe as `token`.
    func facebookToken(_ token: FacebookToken) -> String {
        let value = "EAAB" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        state.facebook.withLock { $0[value] = token }
        return value
    }

    /// The `Cache-Control` of the JWKS answers from now on.
    func serveJWKS(cacheControl: String) { state.cacheControl.withLock { $0 = cacheControl } }

    /// The app credentials `debug_token` accepts.
    func acceptApp(id: String, secret: String) { state.appToken.withLock { $0 = "\(id)|\(secret)" } }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A new key under a new `kid` (the provider rotated).
    func rotate() { state.withLock { $0 = (P256.Signing.PrivateKey(), "k\(Int.random(in: 2...1_000_000))", $0.fetches) } }

    static func jwks(_ key: P256.Signing.PublicKey, kid: String) -> String {
        let point = key.x963Representation
        return """
            {"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"\(kid)","x":"\(Base64URL.encode(point.dropFirst().prefix(32)))","y":"\(Base64URL.encode(point.suffix(32)))"}]}
            """
    }

    /// The claims of a typical token: `sub`, `aud`, `exp` in an hour, `iat` now, a verified email.
    func claims(sub: String, audience: String, email: String?, emailVerified: FakeValue = .bool(true)) -> [String: FakeValue] {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: FakeValue] = [
            "iss": .string(issuer), "sub": .string(sub), "aud": .string(audience), "exp": .int(now + 3_600),
            "iat": .int(now),
        ]
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = emailVerified
        }
        return claims
    }

    /// Signs `claims` with the current key (or `key`); `critical` puts a `crit` header in.
    func sign(
        _ claims: [String: FakeValue], key: P256.Signing.PrivateKey? = nil, critical: [String]? = nil
    ) async throws -> String {
        let (current, kid) = state.withLock { ($0.key, $0.kid) }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(backing: key ?? current), kid: JWKIdentifier(string: kid))
        var header = JWTHeader()
        if let critical {
            header.crit = critical
            for name in critical { header[dynamicMember: name] = .string("x") }
        }
        return try await keys.sign(FakeClaims(values: claims), kid: JWKIdentifier(string: kid), header: header)
    }

    /// Signs `payload`, JSON text as given (numbers no encoder writes: `1e30`, `-0`,
    /// `9223372036854775808`), with the current key: a compact ES256 JWS.
    func sign(rawPayload payload: String) throws -> String {
        let (key, kid) = state.withLock { ($0.key, $0.kid) }
        let header = Base64URL.encode(Data(#"{"alg":"ES256","typ":"JWT","kid":"\#(kid)"}"#.utf8))
        let input = header + "." + Base64URL.encode(Data(payload.utf8))
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(signature)
    }

    /// The current JWKS text (to forge an HMAC keyed with it).
    var publicJWKS: String { state.withLock { Self.jwks($0.key.publicKey, kid: $0.kid) } }
}

/// A JSON value of a fake token.
enum FakeValue: Sendable, Encodable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case strings([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        }
    }
}

struct FakeClaims: JWTPayload {
    var values: [String: FakeValue]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(values: [String: FakeValue]) { self.values = values }
    init(from decoder: any Decoder) throws { values = [:] }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in values { try container.encode(value, forKey: Key(stringValue: key)) }
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Compact JWS pieces for forged tokens.
enum ForgedJWS {
    /// `alg: none`, no signature.
    static func unsigned(_ claims: [String: FakeValue]) throws -> String {
        let header = Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(try JSONEncoder().encode(FakeClaims(values: claims)))
        return "\(header).\(payload)."
    }

    /// HS256 keyed with `secret` (the public key as an HMAC secret: the classic confusion).
    static func hmac(_ claims: [String: FakeValue], secret: String, kid: String = "k1") throws -> String {
        let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT","kid":"\#(kid)"}"#.utf8))
        let payload = Base64URL.encode(try JSONEncoder().encode(FakeClaims(values: claims)))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "\(header).\(payload).\(Base64URL.encode(Data(mac)))"
    }
}
