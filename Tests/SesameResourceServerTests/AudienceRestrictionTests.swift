import ExampleAPI
import Foundation
import Logging
import SesameResourceServer
import SesameStore
import SesameTesting
import Testing

/// Tokens for one API are refused by another (RFC 8707, issue #49): two example APIs, each
/// registered with the server and validating its own identifier in `aud`, side by side with a
/// real server issuing tokens for one of them.
@Suite("Audience-restricted tokens at two APIs (RFC 8707)")
struct AudienceRestrictionTests {
    @Test("a token for API A is accepted by A and refused by B; a token for no API is refused by both")
    func twoAPIs() async throws {
        try await withTestServer { server in
            let shop = "http://127.0.0.1:1/shop"
            let points = "http://127.0.0.1:1/points"
            try await server.store.upsertAPI(APIRecord(identifier: shop, name: "Shop", scopes: ["admin"]))
            try await server.store.upsertAPI(APIRecord(identifier: points, name: "Points", scopes: ["admin"]))
            var backend = try #require(try await server.store.client(id: Fixtures.backend))
            backend.resources = [shop, points]
            try await server.store.upsertClient(backend)

            let shopAPI = try await ExampleAPIServer.start(
                validator: validator(for: server, audience: shop), resource: shop, logger: Logger(label: "shop-api"))
            let pointsAPI = try await ExampleAPIServer.start(
                validator: validator(for: server, audience: points), resource: points, logger: Logger(label: "points-api"))
            defer {
                Task {
                    await shopAPI.shutdown()
                    await pointsAPI.shutdown()
                }
            }
            func me(_ api: ExampleAPIServer, _ token: String) async throws -> ExampleAPITests.Answer {
                try await ExampleAPITests.get(api.baseURL.appendingPathComponent("v1/me"), authorization: "Bearer \(token)")
            }

            let forShop = try await token(server, resource: shop)
            #expect(try await me(shopAPI, forShop).status == 200)
            let refused = try await me(pointsAPI, forShop)
            #expect(refused.status == 401)
            #expect(refused.challenge?.contains(#"error="invalid_token""#) == true, "\(refused.challenge ?? "")")
            #expect(refused.challenge?.contains("resource_metadata=") == true)
            // The API's own scope travels with a token for it.
            let admin = try await ExampleAPITests.get(
                shopAPI.baseURL.appendingPathComponent("v1/admin"), authorization: "Bearer \(forShop)")
            #expect(admin.status == 200)

            let forPoints = try await token(server, resource: points)
            #expect(try await me(pointsAPI, forPoints).status == 200)
            #expect(try await me(shopAPI, forPoints).status == 401)

            // A token for the issuer (no resource) is for neither API.
            let forIssuer = try await clientCredentialsToken(server)
            #expect(try await me(shopAPI, forIssuer).status == 401)
            #expect(try await me(pointsAPI, forIssuer).status == 401)
        }
    }

    /// A `client_credentials` token of the backend fixture client for `resource`.
    func token(_ server: TestServer, resource: String) async throws -> String {
        let basic = Data("\(Fixtures.backend):\(Fixtures.backendSecret)".utf8).base64EncodedString()
        let response = try await server.client().postForm(
            "/token", ["grant_type": "client_credentials", "resource": resource], headers: ["Authorization": "Basic \(basic)"])
        try #require(response.status == 200, "\(response.text)")
        let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return try #require(body["access_token"] as? String)
    }
}
