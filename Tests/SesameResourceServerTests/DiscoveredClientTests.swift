import ExampleAPI
import Foundation
import Logging
import SesameProtocol
import SesameResourceServer
import SesameServer
import SesameStore
import SesameTesting
import Testing

/// A client that knows nothing but an API's URL (an AI agent speaking the Model Context
/// Protocol), end to end over HTTP (issue #49): the API's 401 names its metadata (RFC 9728), the
/// metadata its authorization server, whose metadata (RFC 8414) names the registration endpoint;
/// the client registers itself (RFC 7591), signs the user in with PKCE asking for the API
/// (RFC 8707), and calls the API with a token made for it alone.
@Suite("A client discovers everything from an API's 401")
struct DiscoveredClientTests {
    @Test("401 → resource metadata → authorization server → registration → code with PKCE and resource → the API answers")
    func fromA401Alone() async throws {
        let resource = "http://127.0.0.1:1/orders"
        try await withTestServer(configure: { $0.registration = ClientRegistrationPolicy(mode: .open, apis: [resource]) }) { server in
            try await server.store.upsertAPI(APIRecord(identifier: resource, name: "Orders", scopes: ["orders:read"]))
            let api = try await ExampleAPIServer.start(
                validator: validator(for: server, audience: resource), resource: resource, logger: Logger(label: "orders-api"))
            defer { Task { await api.shutdown() } }
            let http = HTTPTestClient(baseURL: api.baseURL)

            // 1. The API's 401 names its metadata (RFC 9728 §5.1).
            let refused = try await http.get(api.baseURL.appendingPathComponent("v1/me").absoluteString)
            #expect(refused.status == 401)
            let challenge = try #require(refused.header("WWW-Authenticate"))
            let metadataURL = try #require(Self.parameter("resource_metadata", in: challenge))
            // Served by the API itself under its own origin (the identifier's port is not its port).
            let metadataPath = try #require(URL(string: metadataURL)?.path)
            let metadata = try Self.object(try await http.get(api.baseURL.absoluteString + metadataPath))
            #expect(metadata["resource"] as? String == resource)
            let issuer = try #require((metadata["authorization_servers"] as? [String])?.first)

            // 2. The authorization server's metadata (RFC 8414) names the registration endpoint.
            let browser = server.client()
            let serverMetadata = try Self.object(try await browser.get(issuer + "/.well-known/oauth-authorization-server"))
            let registrationEndpoint = try #require(serverMetadata["registration_endpoint"] as? String)
            let authorizationEndpoint = try #require(serverMetadata["authorization_endpoint"] as? String)
            let tokenEndpoint = try #require(serverMetadata["token_endpoint"] as? String)

            // 3. It registers itself: a public client with a loopback redirect (RFC 7591).
            let registration = try await browser.post(
                URL(string: registrationEndpoint)!.path,
                body: Data(#"{"client_name": "Orders agent", "redirect_uris": ["http://127.0.0.1/callback"], "scope": "orders:read"}"#.utf8),
                headers: ["Content-Type": "application/json"])
            try #require(registration.status == 201, "\(registration.text)")
            let clientID = try #require(try Self.object(registration)["client_id"] as? String)

            // 4. The user signs in; the code is for the API (RFC 8707) with PKCE S256.
            let pkce = PKCE()
            let redirectURI = "http://127.0.0.1:49152/callback"
            let page = try await browser.get(
                URL(string: authorizationEndpoint)!.path,
                query: [
                    "client_id": clientID, "redirect_uri": redirectURI, "response_type": "code", "scope": "orders:read",
                    "state": "s1", "code_challenge": pkce.challenge, "code_challenge_method": "S256", "resource": resource,
                ])
            try #require(page.status == 200, "\(page.text)")
            #expect(page.text.contains("Orders agent"), "the sign-in page names the app that registered itself")
            var fields = HTMLForm(html: page.text).fields
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password
            let redirect = try await browser.postForm("/login", fields)
            let code = try #require(redirect.locationQuery["code"], "\(redirect.status) \(redirect.location ?? "")")
            let tokens = try await browser.postForm(
                URL(string: tokenEndpoint)!.path,
                [
                    "grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI, "client_id": clientID,
                    "code_verifier": pkce.verifier, "resource": resource,
                ])
            try #require(tokens.status == 200, "\(tokens.text)")
            let accessToken = try #require(try Self.object(tokens)["access_token"] as? String)
            #expect(JWTParts.payload(accessToken)["aud"] as? String == resource)

            // 5. The API answers, for the user, through the registered client.
            let me = try await ExampleAPITests.get(api.baseURL.appendingPathComponent("v1/me"), authorization: "Bearer \(accessToken)")
            #expect(me.status == 200)
            #expect(me.json["client_id"] as? String == clientID)
            #expect(me.json["scope"] as? [String] == ["orders:read"])
        }
    }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.status) \(response.text)")
    }

    /// A quoted auth-param of a challenge (RFC 9110 §11.2).
    static func parameter(_ name: String, in challenge: String) -> String? {
        guard let range = challenge.range(of: name + "=\"") else { return nil }
        let rest = challenge[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
