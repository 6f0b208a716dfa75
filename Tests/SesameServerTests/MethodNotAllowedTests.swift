import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// RFC 9110 §15.5.6: a known path asked with a method it does not have answers 405 with
/// `Allow`; an unknown path stays 404.
@Suite("405 Method Not Allowed")
struct MethodNotAllowedTests {
    @Test(
        "undeclared methods get 405, the JSON error and Allow",
        arguments: [
            ("DELETE", "/token", "POST"), ("PUT", "/jwks", "GET, HEAD"), ("GET", "/revoke", "POST"),
            ("PATCH", "/api/devices/some-id", "DELETE"), ("POST", "/.well-known/openid-configuration", "GET, HEAD"),
            ("PUT", "/userinfo", "GET, HEAD, POST"),
        ])
    func methodNotAllowed(method: String, path: String, allow: String) async throws {
        try await withTestServer { server in
            let response = try await server.client().request(method, path)
            #expect(response.status == 405, "\(method) \(path): \(response.text)")
            #expect(response.header("Allow") == allow)
            let error = try response.json(APIError.self)
            #expect(error.code == .methodNotAllowed)
            #expect(error.errorCode == 1018)
        }
    }

    @Test("an unknown path is still 404")
    func unknownPath() async throws {
        try await withTestServer { server in
            let response = try await server.client().request("DELETE", "/no-such-path")
            #expect(response.status == 404)
            #expect(response.header("Allow") == nil)
        }
    }
}
