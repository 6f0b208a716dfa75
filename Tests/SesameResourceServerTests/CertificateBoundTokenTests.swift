import ExampleAPI
import Foundation
import Logging
import SesameProtocol
import SesameResourceServer
import SesameTesting
import TestSupport
import Testing
@testable import SesameServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Certificate-bound access tokens at a resource server (issue #48, RFC 8705 §3): a token the
/// real server bound to a client certificate (`cnf` `x5t#S256`) is accepted by the validator and
/// by the example API's middleware only with that certificate, which reaches the API from its
/// TLS connection or from a trusted proxy's RFC 9440 `Client-Cert` header, never from anyone else's.
@Suite(
    "Resource server: certificate-bound tokens (RFC 8705)",
    .enabled(if: ToolRun.available("openssl") || ProcessInfo.processInfo.environment["CI"] == "true", "needs openssl"))
struct CertificateBoundTokenTests {
    /// A server behind a "proxy" on 127.0.0.1 that forwards the client certificate, with a client
    /// bound to `payments`' certificate; `body` gets the token and both certificates.
    static func withBoundToken(_ body: (TestServer, String, Data, Data) async throws -> Void) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let der = try await certificates.issueClient("payments", subject: "/CN=payments", san: "DNS:payments.example.com")
        let other = try await certificates.issueClient("other", subject: "/CN=other", san: "DNS:other.example.com")
        try await withTestServer(configure: {
            $0.trustedProxies = try! TrustedProxies(parsing: ["127.0.0.1"])
            $0.mutualTLS = MutualTLSSettings(clientCAFile: certificates.caFile)
        }) { server in
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            var spec = ClientSpec(clientID: "payments", grantTypes: [.clientCredentials], scopes: ["api.read"])
            spec.tlsClientAuthSubject = .dnsName("payments.example.com")
            spec.certificateBoundAccessTokens = true
            _ = try await admin.addClient(spec)
            let answer = try await server.client().postForm(
                "/token", ["grant_type": "client_credentials", "client_id": "payments", "scope": "api.read"],
                headers: ["Client-Cert": ":\(der.base64EncodedString()):"])
            try #require(answer.status == 200, "\(answer.text)")
            let token = try #require(answer.jsonObject["access_token"] as? String)
            try await body(server, token, der, other)
        }
    }

    @Test("the validator: the bound certificate passes; another, or none, is certificate_binding; a DPoP-style call checks it too")
    func validatorChecksTheCertificate() async throws {
        try await Self.withBoundToken { server, token, der, other in
            let api = validator(for: server)
            let verified = try await api.authenticate(authorization: "Bearer \(token)", clientCertificate: { Array(der) })
            #expect(verified.certificateThumbprint == CertificateThumbprint.sha256(der: der))
            for presented in [Array(other), nil] as [[UInt8]?] {
                await #expect(throws: AccessTokenError.self) {
                    _ = try await api.authenticate(authorization: "Bearer \(token)", clientCertificate: { presented })
                }
            }
            let refusal = await #expect(throws: AccessTokenError.self) {
                _ = try await api.authenticate(
                    authorization: "Bearer \(token)", dpopProofs: [], method: "GET", url: "https://api.example.com/v1/me")
            }
            #expect(refusal?.rule == .certificateBinding && refusal?.errorCode == "invalid_token" && refusal?.status == 401)
            // A token without a binding never asks for a certificate.
            let plain = try await clientCredentialsToken(server)
            _ = try await api.authenticate(authorization: "Bearer \(plain)", clientCertificate: { Issue.record("asked"); return nil })
        }
    }

    @Test("the example API's middleware: Client-Cert from a trusted proxy address is the certificate; from another peer it is ignored")
    func middlewareReadsTrustedProxyOnly() async throws {
        try await Self.withBoundToken { server, token, der, other in
            for (proxies, expected) in [(Set(["127.0.0.1"]), [200, 401]), (Set(["10.0.0.1"]), [401, 401])] {
                let api = try await ExampleAPIServer.start(
                    validator: validator(for: server), certificateProxies: proxies, logger: Logger(label: "mtls-api-test"))
                var statuses: [Int] = []
                for certificate in [der, other] {
                    var request = URLRequest(url: api.baseURL.appendingPathComponent("v1/me"))
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    request.setValue(":\(certificate.base64EncodedString()):", forHTTPHeaderField: "Client-Cert")
                    let (_, response) = try await URLSession.shared.data(for: request)
                    statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0)
                }
                #expect(statuses == expected, "proxies \(proxies)")
                await api.shutdown()
            }
        }
    }
}
