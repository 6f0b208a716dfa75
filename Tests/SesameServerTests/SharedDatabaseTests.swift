import Crypto
import Foundation
import JWTKit
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Two servers on one PostgreSQL database, as two `sesame serve` processes behind a load
/// balancer: each has its own connection pool, client cache and key ring, and they share only
/// the database (and the master key and issuer, as a deployment does). One-time things must stay
/// one-time across them.
@Suite(
    "Two servers on one PostgreSQL database",
    .needsPostgreSQL)
struct SharedDatabaseTests {
    @Test("a code issued by one server is redeemed at the other, once; its tokens work at both")
    func codeAcrossServers() async throws {
        try await withTwoServers { first, second in
            let atFirst = OAuthFlow(browser: first.client())
            let attempt = OAuthFlow.Attempt()
            let code = try await atFirst.signIn(attempt)

            let redeemed = try await OAuthFlow(browser: second.portClient()).exchange(code, attempt: attempt)
            #expect(redeemed.status == 200, "\(redeemed.text)")
            let tokens = try redeemed.json(TokenResponse.self)

            let replay = try await atFirst.exchange(code, attempt: attempt)
            #expect(replay.status == 400)
            #expect(try replay.json(APIError.self).error == "invalid_grant")

            // The same keys and issuer: an access token from one is good at the other (until the
            // replay above revoked what the code issued, RFC 6749 §4.1.2).
            #expect(try await second.portClient().userInfo(tokens.accessToken).status == 401)
        }
    }

    @Test("an access token signed by one server is accepted by the other")
    func accessTokenAcrossServers() async throws {
        try await withTwoServers { first, second in
            let (tokens, _) = try await OAuthFlow(browser: first.client()).tokens()
            #expect(try await second.portClient().userInfo(tokens.accessToken).status == 200)
            #expect(try await first.client().userInfo(tokens.accessToken).status == 200)
        }
    }

    @Test("a refresh token rotated at one server is refused at the other, and the replay revokes the family")
    func rotationAcrossServers() async throws {
        try await withTwoServers { first, second in
            let (tokens, _) = try await OAuthFlow(browser: first.client()).tokens()
            let original = try #require(tokens.refreshToken)

            let rotated = try await second.portClient().refresh(original)
            #expect(rotated.status == 200)
            let successor = try #require(try rotated.json(TokenResponse.self).refreshToken)

            let replay = try await first.client().refresh(original)
            #expect(replay.status == 400)
            #expect(try replay.json(APIError.self).error == "invalid_grant")

            let afterReplay = try await second.portClient().refresh(successor)
            #expect(afterReplay.status == 400, "reuse detection revokes the family on every server")
        }
    }

    @Test("50 concurrent rotations of one refresh token split across both servers: exactly one succeeds")
    func concurrentRotations() async throws {
        try await withTwoServers { first, second in
            let (tokens, _) = try await OAuthFlow(browser: first.client()).tokens()
            let token = try #require(tokens.refreshToken)
            let clients = [first.client(), second.portClient()]
            let statuses = try await statusesAtOnce(50, over: clients) { try await $0.refresh(token).status }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 400 }.count == 49)
        }
    }

    @Test("a key rotated at one server is published and used for signing by the other (checked each second; 10 s allowed on a loaded machine)")
    func keyRotationAcrossServers() async throws {
        try await withTwoServers { first, second in
            let rotated = try await first.keyRing.rotate(overlap: 3600)
            let newKids = Set(rotated.map(\.kid))
            let deadline = ContinuousClock.now + .seconds(10)
            var published = false
            while ContinuousClock.now < deadline, !published {
                let jwks = try await second.portClient().get("/jwks").jsonObject
                let kids = Set((jwks["keys"] as? [[String: Any]] ?? []).compactMap { $0["kid"] as? String })
                published = newKids.isSubset(of: kids)
                if !published { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(published, "the other server did not publish the rotated keys within 10 s")
            let (tokens, _) = try await OAuthFlow(browser: second.portClient()).tokens()
            let kid = JWTParts.header(tokens.accessToken)["kid"] as? String
            #expect(kid.map(newKids.contains) == true, "the other server still signs with an old key")
        }
    }

    @Test("five wrong passwords spread over two servers lock the name on both; a right one is refused at either")
    func throttleAcrossServers() async throws {
        try await withTwoServers { first, second in
            first.clock.freeze()
            let flows = [ChallengeFlow(first), ChallengeFlow(second, http: second.portClient())]
            for attempt in 0..<5 {
                let response = try await flows[attempt % 2].start(password: "not the password")
                #expect(try ChallengeFlow.error(response).code == .invalidCredentials, "attempt \(attempt + 1)")
            }
            for flow in flows {
                let refused = try await flow.start()
                #expect(refused.status == 429, "\(refused.text)")
                #expect(try ChallengeFlow.error(refused).code == .tooManyAttempts)
            }
            first.clock.advance(by: 31)
            #expect(try await flows[1].start().status == 200, "the lockout ends on both after 30 s")
        }
    }

    @Test("password-reset requests for one address split across two servers send 3 mails in all")
    func mailQuotaAcrossServers() async throws {
        try await withTwoServers { first, second in
            let clients = [first.client(), second.portClient()]
            for index in 0..<10 {
                let response = try await clients[index % 2].post(
                    "/api/password/reset", body: Data(#"{"email":"\#(Fixtures.email)"}"#.utf8),
                    headers: ["Content-Type": "application/json"])
                #expect(response.status == 202, "\(response.text)")
            }
            let store = try #require(first.store as? SQLIdentityStore)
            let sent = try await store.outboxEntries(to: Fixtures.email, purpose: "password_reset")
            #expect(sent.count == 3, "\(sent.count) mails went out")
        }
    }

    @Test("a client assertion (private_key_jwt, RFC 7523) accepted by one server is refused as a replay by the other")
    func clientAssertionReplayAcrossServers() async throws {
        try await withTwoServers { first, second in
            let key = P256.Signing.PrivateKey()
            let point = key.publicKey.x963Representation
            let jwks = """
                {"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"\(Base64URL.encode(point.dropFirst().prefix(32)))","y":"\(Base64URL.encode(point.suffix(32)))"}]}
                """
            let admin = ServerAdmin(store: first.store, hasher: first.passwordHasher, keyRing: first.keyRing)
            _ = try await admin.addClient(
                ClientSpec(clientID: "backend-jwt", grantTypes: [.clientCredentials], scopes: ["catalog.read"], jwks: jwks))
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: "k1")
            let now = Int(Date().timeIntervalSince1970)
            let assertion = try await keys.sign(
                ClientAssertionClaims(
                    iss: "backend-jwt", sub: "backend-jwt", aud: first.issuer + "/token", exp: now + 60, iat: now,
                    jti: UUID().uuidString),
                kid: "k1")
            let form = [
                "grant_type": "client_credentials", "client_assertion": assertion,
                "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            ]
            let accepted = try await first.portClient().postForm("/token", form)
            #expect(accepted.status == 200, "\(accepted.text)")
            let replayed = try await second.portClient().postForm("/token", form)
            #expect(replayed.status == 401, "\(replayed.text)")
            #expect(try replayed.json(APIError.self).errorDescription?.contains("replay") == true, "\(replayed.text)")
        }
    }
}

/// The claims of an RFC 7523 client assertion, for the tests that sign one.
struct ClientAssertionClaims: JWTPayload {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var jti: String
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
