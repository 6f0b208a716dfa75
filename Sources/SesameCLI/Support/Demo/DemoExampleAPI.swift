import ExampleAPI
import Foundation
import Sesame
import SesameResourceServer
import SesameServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo's step with the example API: an app's own backend that validates Sesame access
/// tokens with the resource-server library, on its own port.
struct DemoExampleAPI {
    let server: ExampleAPIServer

    /// Starts the example API on a free loopback port, accepting the demo issuer's tokens.
    static func start(issuer: URL) async throws -> DemoExampleAPI {
        let identifier = IdentityServer.issuerIdentifier(issuer)
        let validator = AccessTokenValidator(issuer: identifier, audience: identifier)
        let server = try await ExampleAPIServer.start(validator: validator, logger: DemoWalkthrough.quietLogger)
        return DemoExampleAPI(server: server)
    }

    /// `GET /v1/me` with the account's token (sent because the API's origin is allowed), the
    /// same without a token, and a route needing a scope the token lacks.
    func call(client: SesameClient, account: Account, subject: String, steps: DemoSteps) async throws {
        let me = server.baseURL.appendingPathComponent("v1/me")
        let (body, response) = try await client.data(for: URLRequest(url: me), account: account.id)
        steps.detail("GET \(me.absoluteString) → \(response.statusCode)")
        try demoExpect(response.statusCode == 200, "the example API accepts the access token")
        let caller = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        try demoExpect(caller?["sub"] as? String == subject, "the API sees the signed-in user's sub")
        steps.ok("the API verified the token's signature (issuer's JWKS), iss, aud, exp and typ at+jwt itself")

        let (_, anonymous) = try await URLSession.shared.data(for: URLRequest(url: me))
        let challenge = (anonymous as? HTTPURLResponse)?.value(forHTTPHeaderField: "WWW-Authenticate") ?? "-"
        try demoExpect((anonymous as? HTTPURLResponse)?.statusCode == 401, "without a token the API answers 401")
        steps.detail("without a token → 401, WWW-Authenticate: \(challenge)")

        let admin = server.baseURL.appendingPathComponent("v1/admin")
        let (_, forbidden) = try await client.data(for: URLRequest(url: admin), account: account.id)
        try demoExpect(forbidden.statusCode == 403, "a route needing the admin scope answers 403")
        steps.ok("GET /v1/admin → 403 insufficient_scope: the token lacks the admin scope (RFC 6750 §3.1)")
    }
}
