import ExampleAPI
import Foundation
import Logging
import SesameResourceServer
import SesameTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OAuth 2.0 Protected Resource Metadata (RFC 9728, issue #49): the example API, given its
/// resource identifier, serves its metadata at the well-known path and names it in every
/// challenge, so a client that knows only the API's URL finds the authorization server; the
/// path-suffixed form of §3.1; metadata the RFC does not allow is refused with the rule.
@Suite("Protected resource metadata (RFC 9728)")
struct ProtectedResourceMetadataTests {
    @Test("the example API serves its metadata; 401 and 403 challenges carry resource_metadata; a client finds the issuer from a 401 alone")
    func served() async throws {
        try await withTestServer { server in
            let resource = "http://127.0.0.1:1/example"
            let api = try await ExampleAPIServer.start(
                validator: validator(for: server), resource: resource, logger: Logger(label: "rfc9728-test"))
            defer { Task { await api.shutdown() } }
            // A client with nothing but the API's URL: the 401 names the metadata.
            let refused = try await ExampleAPITests.get(api.baseURL.appendingPathComponent("v1/me"), authorization: nil)
            #expect(refused.status == 401)
            let challenge = try #require(refused.challenge)
            let expected = "http://127.0.0.1:1/.well-known/oauth-protected-resource/example"
            #expect(challenge.contains(#"resource_metadata="\#(expected)""#), "\(challenge)")

            // Served at the path the resource's own path selects (§3.1), on the API itself.
            let (body, response) = try await URLSession.shared.data(
                from: api.baseURL.appendingPathComponent(".well-known/oauth-protected-resource/example"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200 && http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(json["resource"] as? String == resource)
            #expect(json["authorization_servers"] as? [String] == [server.issuer])
            #expect(json["scopes_supported"] as? [String] == ExampleAPI.scopes)
            #expect(json["bearer_methods_supported"] as? [String] == ["header"])
            #expect((json["dpop_signing_alg_values_supported"] as? [String])?.contains("ES256") == true)
            #expect(json["resource_name"] as? String == "Sesame example API")

            // From the metadata to the authorization server's discovery, then a token for the API.
            let issuer = try #require((json["authorization_servers"] as? [String])?.first)
            let (discovery, _) = try await URLSession.shared.data(from: URL(string: issuer + "/.well-known/openid-configuration")!)
            #expect((try JSONSerialization.jsonObject(with: discovery) as? [String: Any])?["token_endpoint"] as? String == issuer + "/token")
            let token = try await clientCredentialsToken(server)
            #expect(try await ExampleAPITests.get(api.baseURL.appendingPathComponent("v1/me"), authorization: "Bearer \(token)").status == 200)

            // A 403 for a missing scope names the metadata too (its scopes_supported say what exists).
            let forbidden = try await ExampleAPITests.get(api.baseURL.appendingPathComponent("v1/admin"), authorization: "Bearer \(token)")
            #expect(forbidden.status == 403 && forbidden.challenge?.contains("resource_metadata=") == true, "\(forbidden.challenge ?? "")")
        }
    }

    @Test("well-known paths (§3.1), the metadata URL, and metadata the RFC refuses")
    func rules() throws {
        let root = ProtectedResourceMetadata(resource: "https://api.example.com", authorizationServers: ["https://id.example.com"])
        #expect(root.wellKnownPath == "/.well-known/oauth-protected-resource")
        #expect(root.metadataURL == "https://api.example.com/.well-known/oauth-protected-resource")
        let nested = ProtectedResourceMetadata(resource: "https://api.example.com:8443/shop/v2/", authorizationServers: ["https://id.example.com"])
        #expect(nested.wellKnownPath == "/.well-known/oauth-protected-resource/shop/v2")
        #expect(nested.metadataURL == "https://api.example.com:8443/.well-known/oauth-protected-resource/shop/v2")
        try root.validate()
        try ProtectedResourceMetadata(resource: "http://127.0.0.1:8081", authorizationServers: ["http://127.0.0.1:8080"]).validate()
        for (resource, servers) in [
            ("http://api.example.com", ["https://id.example.com"]),
            ("https://api.example.com#part", ["https://id.example.com"]),
            ("https://api.example.com?x=1", ["https://id.example.com"]),
            ("api.example.com", ["https://id.example.com"]),
            ("https://api.example.com", []),
            ("https://api.example.com", ["not a url"]),
            (String(repeating: "a", count: 100_000), ["https://id.example.com"]),
        ] {
            #expect(throws: ProtectedResourceMetadataError.self, "\(resource.prefix(40)) \(servers)") {
                try ProtectedResourceMetadata(resource: resource, authorizationServers: servers).validate()
            }
        }
        var challenge = BearerChallenge(error: "invalid_token")
        challenge.resourceMetadata = "https://api.example.com/.well-known/oauth-protected-resource\"; evil=\"1"
        #expect(!challenge.headerValue.contains("\"; evil"), "a quote cannot break out of the parameter: \(challenge.headerValue)")
    }
}
