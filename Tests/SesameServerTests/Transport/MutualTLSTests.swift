import Crypto
import Foundation
import SesameProtocol
import SesameTesting
import TestSupport
import Testing
@testable import SesameServer

/// Mutual TLS (issue #48, RFC 8705) met by curl over the server's own TLS and through a trusted
/// proxy's RFC 9440 `Client-Cert` header: `tls_client_auth` (a CA-issued certificate and its
/// registered subject), `self_signed_tls_client_auth` (a key in the client's JWKS), and access
/// tokens bound to the certificate (`cnf` `x5t#S256`), refused with any other certificate or none.
@Suite(
    "Mutual TLS: client authentication and certificate-bound tokens (curl)",
    .enabled(
        if: ["openssl", "curl"].allSatisfy(ToolRun.available) || ProcessInfo.processInfo.environment["CI"] == "true",
        "needs openssl and curl"))
struct MutualTLSTests {
    /// A client_credentials client of the admin API (helpdesk) that authenticates as `method`.
    static func register(
        _ server: TestServer, id: String, subject: TLSClientAuthSubject? = nil, jwks: String? = nil, bound: Bool
    ) async throws {
        let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
        var spec = ClientSpec(clientID: id, grantTypes: [.clientCredentials], scopes: ["api.read", "sesame:admin"], jwks: jwks)
        spec.tlsClientAuthSubject = subject
        if jwks != nil { spec.tokenEndpointAuthMethod = .selfSignedTLSClientAuth }
        spec.certificateBoundAccessTokens = bound
        _ = try await admin.addClient(spec)
        try await admin.setClientRole(.helpdesk, clientID: id)
    }

    static func claims(of token: String) throws -> [String: Any] {
        let payload = try #require(token.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode(String($0)) })
        return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
    }

    @Test("over the server's TLS: the registered CA-issued certificate authenticates and binds the token; another certificate, a self-signed look-alike or none is refused, and so is the bound token without its certificate")
    func tlsClientAuth() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let der = try await certificates.issueClient("payments", subject: "/C=GB/O=Example Bank/CN=payments")
        try await certificates.issueClient("other", subject: "/C=GB/O=Example Bank/CN=other")
        try await certificates.issueClient("lookalike", subject: "/C=GB/O=Example Bank/CN=payments", selfSigned: true)
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        try await withTestServer(configure: {
            $0.tls = files
            $0.mutualTLS = MutualTLSSettings(clientCAFile: certificates.caFile)
        }) { server in
            try await Self.register(server, id: "bank-backend", subject: .subjectDN("CN=payments, O=Example Bank, C=GB"), bound: true)
            let base = "https://127.0.0.1:\(server.running.port)"
            func curl(_ arguments: [String], as name: String?) async throws -> ToolRun {
                let identity = name.map { ["--cert", certificates.path("\($0).pem"), "--key", certificates.path("\($0).key")] } ?? []
                return try await ToolRun.run(
                    "curl", ["-sS", "--cacert", certificates.caFile, "-w", "\n%{http_code}"] + identity + arguments, in: certificates.directory)
            }
            func token(as name: String?) async throws -> ToolRun {
                try await curl(
                    ["-d", "grant_type=client_credentials", "-d", "client_id=bank-backend", "-d", "scope=sesame:admin", "\(base)/token"],
                    as: name)
            }
            let issued = try await token(as: "payments")
            #expect(issued.status == 0 && issued.output.hasSuffix("\n200"), "\(issued.output) \(issued.error)")
            let response = try JSONDecoder().decode(TokenResponse.self, from: Data(issued.output.split(separator: "\n").dropLast().joined().utf8))
            #expect(response.tokenType == "Bearer", "RFC 8705 section 3: a certificate-bound token is still a Bearer token")
            let cnf = try Self.claims(of: response.accessToken)["cnf"] as? [String: String]
            #expect(cnf?["x5t#S256"] == CertificateThumbprint.sha256(der: der), "\(String(describing: cnf))")

            for (name, why) in [("other", "another CA certificate"), ("lookalike", "a self-signed certificate with the same subject"), (nil, "no certificate")] as [(String?, String)] {
                let refused = try await token(as: name)
                #expect(refused.output.hasSuffix("\n401") && refused.output.contains("invalid_client"), "\(why): \(refused.output)")
            }
            let withSecret = try await curl(
                ["-d", "grant_type=client_credentials", "-d", "client_id=bank-backend", "-d", "client_secret=x", "\(base)/token"], as: "payments")
            #expect(withSecret.output.hasSuffix("\n401"), "a certificate client sends no secret: \(withSecret.output)")

            // The bound token works only over a connection with the certificate it names.
            let header = ["-H", "Authorization: Bearer \(response.accessToken)", "\(base)/admin/api/users"]
            let used = try await curl(header, as: "payments")
            #expect(used.output.hasSuffix("\n200"), "\(used.output)")
            for name in ["other", nil] as [String?] {
                let stolen = try await curl(header, as: name)
                #expect(stolen.output.hasSuffix("\n401") && stolen.output.contains("TLS client certificate"), "\(stolen.output)")
            }

            // Introspection reports the binding (RFC 8705 section 3.2).
            let introspection = try await curl(
                ["-u", "\(Fixtures.backend):\(Fixtures.backendSecret)", "-d", "token=\(response.accessToken)", "\(base)/introspect"], as: nil)
            #expect(introspection.output.contains("\"x5t#S256\":\"\(CertificateThumbprint.sha256(der: der))\""), "\(introspection.output)")

            let discovery = try await curl(["\(base)/.well-known/openid-configuration"], as: nil)
            #expect(discovery.output.contains("\"tls_client_certificate_bound_access_tokens\":true"))
            #expect(discovery.output.contains("\"self_signed_tls_client_auth\"") && discovery.output.contains("\"tls_client_auth\""))
        }
    }

    @Test("a port of its own for mutual TLS (RFC 8705 section 5): discovery names it in mtls_endpoint_aliases; the main port asks for no certificate, the alias port does")
    func endpointAliases() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await certificates.issueClient("payments", subject: "/O=Example Bank/CN=payments")
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        try await withTestServer(configure: {
            $0.tls = files
            $0.mutualTLS = MutualTLSSettings(clientCAFile: certificates.caFile, port: 0)
        }) { server in
            try await Self.register(server, id: "bank-backend", subject: .subjectDN("CN=payments,O=Example Bank"), bound: true)
            let aliasPort = try #require(server.running.mutualTLSPort)
            #expect(aliasPort != server.running.port)
            func curl(_ arguments: [String]) async throws -> ToolRun {
                try await ToolRun.run(
                    "curl",
                    ["-sS", "--cacert", certificates.caFile, "-w", "\n%{http_code}", "--cert", certificates.path("payments.pem"),
                     "--key", certificates.path("payments.key")] + arguments,
                    in: certificates.directory)
            }
            let discovery = try await curl(["https://127.0.0.1:\(server.running.port)/.well-known/openid-configuration"])
            let metadata = try #require(
                try JSONSerialization.jsonObject(with: Data(discovery.output.split(separator: "\n").dropLast().joined().utf8)) as? [String: Any])
            let aliases = try #require(metadata["mtls_endpoint_aliases"] as? [String: String], "\(discovery.output)")
            #expect(aliases["token_endpoint"] == "https://127.0.0.1:\(aliasPort)/token")
            #expect(aliases["userinfo_endpoint"] == "https://127.0.0.1:\(aliasPort)/userinfo")
            let form = ["-d", "grant_type=client_credentials", "-d", "client_id=bank-backend"]
            let main = try await curl(form + ["https://127.0.0.1:\(server.running.port)/token"])
            #expect(main.output.hasSuffix("\n401"), "the main port never asked for the certificate: \(main.output)")
            let alias = try await curl(form + [try #require(aliases["token_endpoint"])])
            #expect(alias.output.hasSuffix("\n200"), "\(alias.output) \(alias.error)")
        }
    }

    @Test("self_signed_tls_client_auth: the certificate whose key is in the client's JWKS authenticates; another self-signed one does not")
    func selfSigned() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let der = try await certificates.issueClient("device", subject: "/CN=device-1", selfSigned: true)
        try await certificates.issueClient("intruder", subject: "/CN=device-1", selfSigned: true)
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        try await withTestServer(configure: {
            $0.tls = files
            $0.mutualTLS = MutualTLSSettings()
        }) { server in
            let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","kid":"device-1","x":"AAAA","y":"AAAA","x5c":["\#(der.base64EncodedString())"]}]}"#
            try await Self.register(server, id: "device-1", jwks: jwks, bound: false)
            let base = "https://127.0.0.1:\(server.running.port)"
            for (name, status) in [("device", "200"), ("intruder", "401")] {
                let run = try await ToolRun.run(
                    "curl",
                    ["-sS", "--cacert", certificates.caFile, "-w", "\n%{http_code}", "--cert", certificates.path("\(name).pem"),
                     "--key", certificates.path("\(name).key"), "-d", "grant_type=client_credentials", "-d", "client_id=device-1",
                     "-d", "scope=api.read", "\(base)/token"],
                    in: certificates.directory)
                #expect(run.output.hasSuffix("\n\(status)"), "\(name): \(run.output) \(run.error)")
            }
        }
    }

    @Test("behind a TLS-terminating proxy: Client-Cert from a trusted proxy authenticates and binds; from any other peer it is ignored")
    func trustedProxyHeader() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let der = try await certificates.issueClient("payments", subject: "/O=Example Bank/CN=payments", san: "DNS:payments.example.com")
        let header = ["Client-Cert": ":\(der.base64EncodedString()):"]
        let form = ["grant_type": "client_credentials", "client_id": "bank-backend", "scope": "api.read"]
        for (proxy, trusted) in [("127.0.0.1", true), ("10.0.0.0/8", false)] {
            try await withTestServer(configure: {
                $0.trustedProxies = try! TrustedProxies(parsing: [proxy])
                $0.mutualTLS = MutualTLSSettings(clientCAFile: certificates.caFile)
            }) { server in
                try await Self.register(server, id: "bank-backend", subject: .dnsName("payments.example.com"), bound: true)
                let answer = try await server.client().postForm("/token", form, headers: header)
                if trusted {
                    #expect(answer.status == 200, "\(answer.text)")
                    let token = try answer.json(TokenResponse.self).accessToken
                    let cnf = try Self.claims(of: token)["cnf"] as? [String: String]
                    #expect(cnf?["x5t#S256"] == CertificateThumbprint.sha256(der: der))
                    let garbage = try await server.client().postForm("/token", form, headers: ["Client-Cert": ":bm90IGEgY2VydA==:"])
                    #expect(garbage.status == 400 && garbage.text.contains("RFC 9440"), "\(garbage.text)")
                } else {
                    #expect(answer.status == 401 && answer.text.contains("TLS client certificate"), "the header of an untrusted peer: \(answer.text)")
                }
            }
        }
    }

    @Test("registration: tls_client_auth needs a subject and no secret or keys; a subject needs tls_client_auth; a public client cannot bind to a certificate")
    func registrationRules() async throws {
        try await withTestServer { server in
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            func refusal(_ change: (inout ClientSpec) -> Void) async -> String {
                var spec = ClientSpec(
                    clientID: "c-\(UUID().uuidString.prefix(8))", redirectURIs: ["https://app.example.com/cb"],
                    grantTypes: [.authorizationCode])
                change(&spec)
                do {
                    _ = try await admin.addClient(spec)
                    return "accepted"
                } catch {
                    return "\(error)"
                }
            }
            #expect(await refusal { $0.tokenEndpointAuthMethod = .tlsClientAuth }.contains("tls_client_auth needs the certificate's subject DN"))
            #expect(await refusal { $0.tlsClientAuthSubject = .subjectDN("CN=x"); $0.confidential = true }.contains("no secret"))
            #expect(await refusal { $0.tlsClientAuthSubject = .subjectDN("no equals sign") }.contains("RFC 4514"))
            #expect(await refusal { $0.tlsClientAuthSubject = .ipAddress("300.1.1.1") }.contains("not an IPv4 or IPv6"))
            #expect(await refusal { $0.tlsClientAuthSubject = .subjectDN("CN=x"); $0.tokenEndpointAuthMethod = .clientSecretBasic; $0.confidential = true }.contains("only for tls_client_auth"))
            #expect(await refusal { $0.certificateBoundAccessTokens = true }.contains("certificate-bound tokens are for clients that authenticate"))
            #expect(await refusal { $0.tlsClientAuthSubject = .email("ops@example.com"); $0.certificateBoundAccessTokens = true } == "accepted")
        }
    }
}
