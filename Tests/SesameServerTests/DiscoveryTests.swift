import SesameTesting
import Foundation
import SesameProtocol
import Testing

@Suite("Discovery, JWKS and health")
struct DiscoveryTests {
    @Test("openid-configuration advertises exactly what is implemented")
    func openIDConfiguration() async throws {
        try await withTestServer { server in
            let response = try await server.client().get("/.well-known/openid-configuration")
            #expect(response.status == 200)
            let metadata = try response.json(ProviderMetadata.self)
            #expect(metadata.issuer == server.issuer)
            #expect(metadata.authorizationEndpoint.absoluteString == server.issuer + "/authorize")
            #expect(metadata.tokenEndpoint.absoluteString == server.issuer + "/token")
            #expect(metadata.jwksURI.absoluteString == server.issuer + "/jwks")
            #expect(metadata.endSessionEndpoint?.absoluteString == server.issuer + "/logout")
            #expect(metadata.codeChallengeMethodsSupported == ["S256"])
            #expect(metadata.authorizationResponseIssParameterSupported == true)
            #expect(metadata.responseTypesSupported == ["code"])
            #expect(
                Set(metadata.grantTypesSupported ?? []) == [
                    "authorization_code", "refresh_token", "client_credentials",
                    "urn:ietf:params:oauth:grant-type:token-exchange", "urn:ietf:params:oauth:grant-type:device_code",
                ])
            #expect(metadata.nativeSSOSupported == true)
            #expect(!(metadata.grantTypesSupported ?? []).contains("password"))
            #expect(Set(metadata.idTokenSigningAlgValuesSupported ?? []) == ["RS256", "ES256"])
            #expect(
                Set(metadata.tokenEndpointAuthMethodsSupported ?? []) == [
                    "client_secret_basic", "client_secret_post", "private_key_jwt", "none",
                ])
            #expect(metadata.requestParameterSupported == false)
        }
    }

    @Test("RFC 8414 metadata path serves the same document")
    func oauthAuthorizationServer() async throws {
        try await withTestServer { server in
            let client = server.client()
            let oidc = try await client.get("/.well-known/openid-configuration")
            let oauth = try await client.get("/.well-known/oauth-authorization-server")
            #expect(oauth.status == 200)
            #expect(try oauth.json(ProviderMetadata.self) == oidc.json(ProviderMetadata.self))
        }
    }

    @Test("JWKS publishes an RS256 and an ES256 public key, no private parts")
    func jwks() async throws {
        try await withTestServer { server in
            let response = try await server.client().get("/jwks")
            #expect(response.status == 200)
            let keys = try #require(response.jsonObject["keys"] as? [[String: Any]])
            let algorithms = Set(keys.compactMap { $0["alg"] as? String })
            #expect(algorithms.isSuperset(of: ["RS256", "ES256"]))
            #expect(keys.allSatisfy { $0["kid"] is String })
            #expect(keys.allSatisfy { $0["d"] == nil && $0["p"] == nil })
        }
    }

    @Test("health answers ok")
    func health() async throws {
        try await withTestServer { server in
            let response = try await server.client().get("/health")
            #expect(response.status == 200)
            #expect(response.jsonObject["status"] as? String == "ok")
        }
    }

    @Test("unknown paths answer a JSON API error")
    func notFound() async throws {
        try await withTestServer { server in
            let response = try await server.client().get("/no-such-thing")
            #expect(response.status == 404)
            let error = try response.json(APIError.self)
            #expect(error.errorID != nil)
            #expect(error.code == .notFound)
        }
    }
}
