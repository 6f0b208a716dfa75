import SesameTesting
import Crypto
import Foundation
import Logging
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    /// Routes that serve HTML pages, redirects or the pages' scripts, not JSON.
    static let pages: Set<String> = [
        "GET /authorize", "POST /authorize", "GET /login", "POST /login", "GET /logout", "POST /logout", "GET /signup",
        "POST /signup", "GET /verify-email", "POST /verify-email", "GET /password-reset", "POST /password-reset",
        "POST /password-reset/confirm", "GET /assets/challenge.js", "GET /assets/challenge-worker.js",
        // The hosted passkey pages and their script's option fetches (CSRF-cookie bound, docs/passkeys.md).
        "GET /account/passkeys", "POST /account/passkeys", "POST /account/passkeys/options", "POST /login/passkey",
        "GET /assets/passkey.js",
        // The server's home page (sign-up, password reset, passkeys).
        "GET /",
        // "Continue with …": the browser's round trip through a federation provider (docs/federation.md).
        "GET /federation/start", "GET /federation/callback",
        // The device verification page (RFC 8628 §3.3, docs/device-authorization.md).
        "GET /device", "POST /device", "GET /device/callback", "POST /device/decision",
    ]

    /// The admin console's pages under `/admin` (its JSON API is `/admin/api/`, described).
    static func isConsolePage(_ route: String) -> Bool {
        let path = route.split(separator: " ").last.map(String.init) ?? ""
        return (path == "/admin" || path.hasPrefix("/admin/")) && !path.hasPrefix("/admin/api/")
    }

    private func document(_ server: TestServer) async throws -> [String: Any] {
        let response = try await server.client().get("/api/openapi.json")
        try #require(response.status == 200)
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("Content-Type") == "application/json")
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test("every JSON route the router registers is described, with the method it answers")
    func coversEveryRoute() async throws {
        try await withTestServer { server in
            let document = try await document(server)
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var described: Set<String> = []
            for (path, item) in paths {
                for method in item.keys { described.insert("\(method.uppercased()) \(path)") }
            }
            let routes = server.running.routes
            #expect(routes.contains("POST /api/signup"), "the route list is real: \(routes.sorted())")
            #expect(routes.contains("DELETE /api/devices/{device_id}"))
            #expect(routes.contains("GET /admin/users"), "the console is registered")
            let json = routes.subtracting(Self.pages).filter { !Self.isConsolePage($0) }
            let missing = json.subtracting(described)
            #expect(missing.isEmpty, "not in the OpenAPI document: \(missing.sorted())")
            let stale = described.subtracting(routes)
            #expect(stale.isEmpty, "described but not registered: \(stale.sorted())")
            for required in ["POST /token", "POST /authorize-challenge", "GET /jwks", "POST /introspect", "POST /revoke",
                "GET /userinfo", "GET /.well-known/openid-configuration", "GET /api/mfa"] {
                #expect(described.contains(required), "\(required)")
            }
        }
    }

    @Test("every $ref resolves; the error code table lists every APIErrorCode")
    func referencesAndErrorTable() async throws {
        try await withTestServer { server in
            let document = try await document(server)
            let components = try #require(document["components"] as? [String: Any])
            let schemas = try #require(components["schemas"] as? [String: Any])
            var references: Set<String> = []
            func collect(_ value: Any) {
                if let object = value as? [String: Any] {
                    if let ref = object["$ref"] as? String { references.insert(ref) }
                    object.values.forEach(collect)
                } else if let array = value as? [Any] {
                    array.forEach(collect)
                }
            }
            collect(document)
            #expect(!references.isEmpty)
            for reference in references {
                let name = reference.replacingOccurrences(of: "#/components/schemas/", with: "")
                #expect(schemas[name] != nil, "\(reference) does not resolve")
            }

            let errorCode = try #require(schemas["APIErrorCode"] as? [String: Any])
            let table = try #require(errorCode["x-error-codes"] as? [[String: Any]])
            #expect(table.compactMap { $0["code"] as? Int } == APIErrorCode.allCases.map(\.rawValue))
            let emailTaken = try #require(table.first { $0["code"] as? Int == 3001 })
            #expect(emailTaken["http_status"] as? Int == 409)
            #expect(emailTaken["error"] as? String == "invalid_request")
            let info = try #require(document["info"] as? [String: Any])
            #expect((info["description"] as? String)?.contains("| 3004 |") == true)
            let security = try #require(components["securitySchemes"] as? [String: [String: Any]])
            #expect(security["bearerAuth"]?["scheme"] as? String == "bearer")
        }
    }

    @Test("every bearer operation under /api/ documents the 403 for a third-party token; /userinfo does not")
    func firstPartyResponses() async throws {
        try await withTestServer { server in
            let document = try await document(server)
            let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
            var checked = 0
            for (path, item) in paths {
                for (method, operation) in item {
                    guard let security = operation["security"] as? [[String: Any]],
                        security.contains(where: { $0["bearerAuth"] != nil })
                    else { continue }
                    let responses = try #require(operation["responses"] as? [String: [String: Any]])
                    let forbidden = responses["403"]?["description"] as? String ?? ""
                    if path.hasPrefix("/api/") {
                        #expect(forbidden.contains("(1021)"), "\(method.uppercased()) \(path)")
                        checked += 1
                    } else {
                        #expect(!forbidden.contains("(1021)"), "\(method.uppercased()) \(path)")
                    }
                }
            }
            #expect(checked >= 15, "the account and MFA operations were found")
        }
    }

    @Test("schemas are read off the wire types: members, types and required fields")
    func schemasMatchWireTypes() async throws {
        try await withTestServer { server in
            let document = try await document(server)
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
            let signUp = try #require(schemas["SignUpRequest"])
            let properties = try #require(signUp["properties"] as? [String: [String: Any]])
            #expect(Set(properties.keys).isSuperset(of: ["client_id", "email", "password", "username", "name", "address"]))
            #expect(signUp["required"] as? [String] == ["client_id", "email", "password"])
            // Optional members of a request may be null; required strings may not be empty.
            #expect(properties["address"]?["type"] as? [String] == ["object", "null"])
            #expect(properties["zoneinfo"]?["type"] as? [String] == ["string", "null"])
            #expect(properties["email"]?["minLength"] as? Int == 1)
            #expect(properties["email"]?["type"] as? String == "string")

            let apiError = try #require(schemas["APIError"]?["properties"] as? [String: [String: Any]])
            #expect(apiError["error_code"]?["type"] as? String == "integer")
            #expect(apiError["remaining_attempts"]?["type"] as? String == "integer")
            #expect((apiError["error_details"]?["items"] as? [String: Any])?["type"] as? String == "object")
            #expect(schemas["APIError"]?["required"] as? [String] == ["error"])

            let status = try #require(schemas["EmailVerificationStatus"]?["properties"] as? [String: [String: Any]])
            #expect(status["email_verified"]?["type"] as? String == "boolean")
            let jwk = try #require((schemas["JWKS"]?["properties"] as? [String: [String: Any]])?["keys"]?["items"] as? [String: Any])
            let keyMembers = Set((jwk["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
            #expect(keyMembers.isSuperset(of: ["kty", "kid", "n", "e", "crv", "x", "y"]), "RSA and EC members merged")
            #expect(jwk["required"] as? [String] == ["alg", "kid", "kty", "use"])

            let token = try #require(schemas["TokenRequest"]?["properties"] as? [String: [String: Any]])
            #expect(
                token["grant_type"]?["enum"] as? [String] == [
                    "authorization_code", "refresh_token", "client_credentials",
                    "urn:ietf:params:oauth:grant-type:token-exchange", "urn:sesame:params:oauth:grant-type:pin",
                    "urn:ietf:params:oauth:grant-type:device_code",
                ])
        }
    }
}
