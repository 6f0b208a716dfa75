import Foundation
import SesameNIOTransport
import SesameProtocol
import SesameTesting
import TestSupport
import Testing
@testable import SesameServer

/// A FAPI 2.0 client on mutual TLS instead of DPoP and `private_key_jwt` (issue #48, FAPI 2.0
/// §5.3.2.1 items 4 and 6, RFC 8705), the whole flow over the server's own TLS: the push and the
/// token requests by curl with the client's certificate, the browser's authorization and login
/// over TLS to the test's CA; ES256 tokens bound to the certificate (`x5t#S256`, `Bearer`), a
/// refresh only with that certificate, and the profile's refusals (no push, no certificate).
@Suite(
    "FAPI 2.0 over mutual TLS (curl, NIOTransport)",
    .enabled(
        if: ["openssl", "curl"].allSatisfy(ToolRun.available) || ProcessInfo.processInfo.environment["CI"] == "true",
        "needs openssl and curl"))
struct FAPI2MutualTLSTests {
    static let clientID = "bank-mtls"
    static let redirect = "https://bank.example.com/cb"

    @Test("PAR, login and code over TLS with the client's certificate: certificate-bound ES256 tokens, no DPoP; refresh only with that certificate")
    func flow() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let der = try await certificates.issueClient("bank", subject: "/C=GB/O=Example Bank/CN=bank-mtls")
        try await certificates.issueClient("intruder", subject: "/C=GB/O=Example Bank/CN=intruder")
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        try await withTestServer(configure: {
            $0.tls = files
            $0.mutualTLS = MutualTLSSettings(clientCAFile: certificates.caFile)
        }) { server in
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            var spec = ClientSpec(
                clientID: Self.clientID, redirectURIs: [Self.redirect], scopes: ["openid", "profile", "offline_access"],
                idTokenSigningAlg: "ES256", accessTokenSigningAlg: "ES256")
            spec.securityProfile = .fapi2
            spec.tlsClientAuthSubject = .subjectDN("CN=bank-mtls, O=Example Bank, C=GB")
            spec.certificateBoundAccessTokens = true
            let (record, _) = try await admin.addClient(spec)
            #expect(record.requirePushedRequests && !record.dpopBoundAccessTokens, "mTLS binding stands in for DPoP")

            let base = server.issuer
            func curl(_ form: [String: String], _ path: String, as name: String?) async throws -> (status: Int, body: [String: Any]) {
                let identity = name.map { ["--cert", certificates.path("\($0).pem"), "--key", certificates.path("\($0).key")] } ?? []
                let fields = form.sorted { $0.key < $1.key }.flatMap { ["--data-urlencode", "\($0.key)=\($0.value)"] }
                let run = try await ToolRun.run(
                    "curl", ["-sS", "--cacert", certificates.caFile, "-w", "\n%{http_code}"] + identity + fields + [base + path],
                    in: certificates.directory)
                let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
                let body = (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8))) as? [String: Any] ?? [:]
                return (Int(lines.last ?? "") ?? 0, body)
            }

            let transport = NIOTransport(trustRoots: try NIOTransport.TrustRoots.pemFile(certificates.caFile))
            var flow = OAuthFlow(browser: HTTPTestClient(baseURL: URL(string: base)!, send: transport.send))
            flow.clientID = Self.clientID
            flow.redirectURI = Self.redirect
            flow.scope = "openid profile offline_access"

            // The profile refuses the front channel without a push, and a push without the certificate.
            let direct = try await flow.authorize(OAuthFlow.Attempt())
            #expect(direct.status == 303 && direct.locationQuery["error"] == "invalid_request", "\(direct.location ?? direct.text)")
            let attempt = OAuthFlow.Attempt()
            let anonymous = try await curl(flow.parameters(attempt), "/par", as: nil)
            #expect(anonymous.status == 401 && anonymous.body["error"] as? String == "invalid_client", "\(anonymous)")

            let pushed = try await curl(flow.parameters(attempt), "/par", as: "bank")
            try #require(pushed.status == 201, "\(pushed)")
            let requestURI = try #require(pushed.body["request_uri"] as? String)
            let page = try await flow.browser.get("/authorize", query: ["client_id": Self.clientID, "request_uri": requestURI])
            let redirect = try await flow.submitLogin(page: page)
            try #require(redirect.status == 303, "\(redirect.text)")
            #expect(redirect.locationQuery["iss"] == base)
            let code = try #require(redirect.locationQuery["code"])

            let form = [
                "grant_type": "authorization_code", "code": code, "redirect_uri": Self.redirect,
                "code_verifier": attempt.pkce.verifier, "client_id": Self.clientID,
            ]
            let stolen = try await curl(form, "/token", as: "intruder")
            #expect(stolen.status == 401, "another certificate of the same CA: \(stolen)")
            let issued = try await curl(form, "/token", as: "bank")
            try #require(issued.status == 200, "\(issued)")
            #expect(issued.body["token_type"] as? String == "Bearer", "RFC 8705 §3: no DPoP")
            let accessToken = try #require(issued.body["access_token"] as? String)
            #expect(JWTParts.header(accessToken)["alg"] as? String == "ES256")
            let claims = JWTParts.payload(accessToken)
            #expect((claims["cnf"] as? [String: Any])?["x5t#S256"] as? String == CertificateThumbprint.sha256(der: der))
            #expect((claims["cnf"] as? [String: Any])?["jkt"] == nil)

            let refreshToken = try #require(issued.body["refresh_token"] as? String)
            let refresh = ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": Self.clientID]
            let refusedRefresh = try await curl(refresh, "/token", as: "intruder")
            #expect(refusedRefresh.status == 401, "\(refusedRefresh)")
            let refreshed = try await curl(refresh, "/token", as: "bank")
            #expect(refreshed.status == 200 && refreshed.body["refresh_token"] == nil, "not rotated (FAPI 2.0 §5.3.2.1): \(refreshed)")
            let refreshedToken = try #require(refreshed.body["access_token"] as? String)
            #expect(((JWTParts.payload(refreshedToken)["cnf"] as? [String: Any])?["x5t#S256"] as? String) == CertificateThumbprint.sha256(der: der))
        }
    }
}
