import Crypto
import Foundation
import SesameProtocol
import SesameServer
import SesameTesting
import TestSupport
import Testing

/// Issue #28 for `private_key_jwt` (RFC 7523 §3): a client assertion, signed by the client's
/// registered key, whose `exp` or `iat` is no date (`1e30`, 2^63, `-1e300`, a string) is refused
/// with `invalid_client` naming the claim and the rule, never reported as a bad signature, and
/// the server keeps answering. Real server in process, real HTTP on 127.0.0.1.
@Suite("Client assertions: extreme NumericDates")
struct ClientAssertionNumericDateTests {
    @Test("exp and iat out of range or not numbers: 401 invalid_client naming the claim; -0 is 1970 (expired); a fractional exp is accepted")
    func extremeTimes() async throws {
        try await withTestServer { server in
            let key = P256.Signing.PrivateKey()
            let point = key.publicKey.x963Representation
            let jwks = """
                {"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"\(Base64URL.encode(point.dropFirst().prefix(32)))","y":"\(Base64URL.encode(point.suffix(32)))"}]}
                """
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            _ = try await admin.addClient(
                ClientSpec(clientID: "backend-jwt", grantTypes: [.clientCredentials], scopes: ["catalog.read"], jwks: jwks))
            let now = Int(server.clock.now().timeIntervalSince1970)
            func assertion(exp: String, iat: String) throws -> String {
                let header = Base64URL.encode(Data(#"{"alg":"ES256","kid":"k1"}"#.utf8))
                let payload = """
                    {"iss":"backend-jwt","sub":"backend-jwt","aud":"\(server.issuer)/token","exp":\(exp),"iat":\(iat),"jti":"\(UUID().uuidString)"}
                    """
                let input = header + "." + Base64URL.encode(Data(payload.utf8))
                return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
            }
            func send(_ assertion: String) async throws -> TestResponse {
                try await server.client().postForm(
                    "/token",
                    [
                        "grant_type": "client_credentials", "client_assertion": assertion,
                        "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                    ])
            }
            for value in ExtremeNumbers.outOfRange + ExtremeNumbers.numberLikeStrings {
                for claim in ["exp", "iat"] {
                    let text = claim == "exp" ? try assertion(exp: value, iat: "\(now)") : try assertion(exp: "\(now + 60)", iat: value)
                    let answer = try await send(text)
                    #expect(answer.status == 401, "\(claim) \(value): \(answer.text)")
                    let error = try answer.json(APIError.self)
                    #expect(error.error == "invalid_client", "\(claim) \(value): \(answer.text)")
                    if value != "1e400" {
                        #expect(
                            error.errorDescription?.hasPrefix("client_assertion refused: \(claim) ") == true,
                            "\(claim) \(value): \(answer.text)")
                    }
                }
            }
            let beyond = try await send(try assertion(exp: "1e30", iat: "\(now)"))
            #expect(
                try beyond.json(APIError.self).errorDescription
                    == "client_assertion refused: exp 1e+30 is beyond year 9999 (the latest NumericDate accepted is 253402300799).")
            let expired = try await send(try assertion(exp: "-0", iat: "-0"))
            #expect(try expired.json(APIError.self).errorDescription == "client_assertion refused: it has expired (exp).")
            let fractional = try await send(try assertion(exp: "\(now + 30).5", iat: "\(now).25"))
            #expect(fractional.status == 200, "\(fractional.text)")
        }
    }
}
