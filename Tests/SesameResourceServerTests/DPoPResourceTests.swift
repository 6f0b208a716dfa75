import ExampleAPI
import Foundation
import Logging
import SesameJOSE
import SesameProtocol
import SesameResourceServer
import SesameTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// DPoP at a resource server (RFC 9449 §7): the RFC's own examples as vectors, then the library
/// with tokens the real server bound to a key, directly and through the example API over HTTP.
@Suite("Resource server: DPoP-bound tokens (RFC 9449)")
struct DPoPResourceTests {
    @Test("RFC 9449 vectors: the section 4.1 and 7.1 proofs verify, with the jkt of 6.1 and the ath of 7.1")
    func rfcVectors() throws {
        let vector = try FixtureFiles.json("vectors/dpop-rfc9449.json")
        let token = try #require(vector["token_request"] as? [String: Any])
        let resource = try #require(vector["resource_request"] as? [String: Any])
        let jkt = try #require(vector["jkt"] as? String)
        let verifier = DPoPProofVerifier()
        let first = try verifier.verify(
            try #require(token["proof"] as? String), method: "POST", url: try #require(token["url"] as? String),
            accessToken: nil, now: Date(timeIntervalSince1970: try #require(token["iat"] as? Double)))
        #expect(first.thumbprint == jkt)
        #expect(first.jti == token["jti"] as? String)
        let accessToken = try #require(resource["access_token"] as? String)
        #expect(DPoP.accessTokenHash(accessToken) == resource["ath"] as? String)
        let proof = try #require(resource["proof"] as? String)
        let url = try #require(resource["url"] as? String)
        let now = Date(timeIntervalSince1970: try #require(resource["iat"] as? Double) + 10)
        let second = try verifier.verify(proof, method: "GET", url: url, accessToken: accessToken, now: now)
        #expect(second.thumbprint == jkt)
        // Each rule, broken against the same vector.
        let refusals: [(String, () throws(DPoPProofRefusal) -> VerifiedDPoPProof, DPoPProofRefusal.Rule)] = [
            ("another token", { () throws(DPoPProofRefusal) in try verifier.verify(proof, method: "GET", url: url, accessToken: "other", now: now) }, .accessTokenHash),
            ("another method", { () throws(DPoPProofRefusal) in try verifier.verify(proof, method: "POST", url: url, accessToken: accessToken, now: now) }, .method),
            ("another URL", { () throws(DPoPProofRefusal) in try verifier.verify(proof, method: "GET", url: "https://resource.example.org/other", accessToken: accessToken, now: now) }, .uri),
            ("years later", { () throws(DPoPProofRefusal) in try verifier.verify(proof, method: "GET", url: url, accessToken: accessToken, now: Date()) }, .issuedAt),
            ("a tampered signature", { () throws(DPoPProofRefusal) in try verifier.verify(String(proof.dropLast(2)) + "AA", method: "GET", url: url, accessToken: accessToken, now: now) }, .signature),
        ]
        for (name, attempt, rule) in refusals {
            #expect(throws: DPoPProofRefusal.self, "\(name)") { try attempt() }
            do { _ = try attempt() } catch { #expect(error.rule == rule, "\(name): \(error)") }
        }
        // The query and fragment of the request do not count, and neither does the default port.
        _ = try verifier.verify(proof, method: "GET", url: "https://RESOURCE.example.org:443/protectedresource?x=1#f", accessToken: accessToken, now: now)
    }

    /// A `client_credentials` token of the real server bound to `maker`'s key.
    static func boundToken(_ server: TestServer, _ maker: DPoPProofMaker) async throws -> String {
        let basic = Data("\(Fixtures.backend):\(Fixtures.backendSecret)".utf8).base64EncodedString()
        let response = try await server.client().postForm(
            "/token", ["grant_type": "client_credentials"],
            headers: ["Authorization": "Basic \(basic)", "DPoP": maker.proof("POST", server.issuer + "/token", issuedAt: server.clock.now())])
        try #require(response.status == 200, "\(response.text)")
        return try #require(response.jsonObject["access_token"] as? String)
    }

    @Test("the validator: a bound token needs Authorization: DPoP and one fresh proof of its key for this request")
    func validator() async throws {
        try await withTestServer { server in
            let maker = DPoPProofMaker()
            let token = try await Self.boundToken(server, maker)
            let api = SesameResourceServerTests.validator(for: server)
            let url = "https://api.example.com/v1/me"
            let now = server.clock.now()
            let proof = maker.proof("GET", url, accessToken: token, issuedAt: now)
            let verified = try await api.authenticate(
                authorization: "DPoP \(token)", dpopProofs: [proof], method: "GET", url: url)
            #expect(verified.confirmationThumbprint == maker.thumbprint)

            func refusal(_ authorization: String, _ proofs: [String], method: String = "GET") async -> AccessTokenError? {
                do {
                    _ = try await api.authenticate(authorization: authorization, dpopProofs: proofs, method: method, url: url)
                    return nil
                } catch { return error }
            }
            let replay = await refusal("DPoP \(token)", [proof])
            #expect(replay?.rule == .dpopProof && replay?.message.contains("used before") == true, "\(String(describing: replay))")
            let thief = await refusal("DPoP \(token)", [DPoPProofMaker().proof("GET", url, accessToken: token, issuedAt: now)])
            #expect(thief?.rule == .dpopProof)
            #expect(await refusal("DPoP \(token)", [])?.rule == .dpopProof)
            let twice = [maker.proof("GET", url, accessToken: token, issuedAt: now), maker.proof("GET", url, accessToken: token, issuedAt: now)]
            #expect(await refusal("DPoP \(token)", twice)?.rule == .dpopProof)
            #expect(await refusal("DPoP \(token)", [maker.proof("POST", url, accessToken: token, issuedAt: now)])?.rule == .dpopProof)
            let downgrade = await refusal("Bearer \(token)", [])
            #expect(downgrade?.rule == .dpopBinding)
            #expect(downgrade?.errorCode == "invalid_token")
            #expect(BearerChallenge(refusing: try #require(downgrade)).headerValue.hasPrefix("DPoP "))
            // The DPoP-unaware entry point refuses a bound token outright.
            await #expect(throws: AccessTokenError.self) {
                _ = try await api.authenticate(authorization: "Bearer \(token)")
            }
            // A bearer token presented with the DPoP scheme.
            let bearer = try await clientCredentialsToken(server)
            let wrongScheme = await refusal(
                "DPoP \(bearer)", [maker.proof("GET", url, accessToken: bearer, issuedAt: now)])
            #expect(wrongScheme?.rule == .dpopBinding)
        }
    }

    @Test("the replay cache is bounded: full of live proofs it refuses new ones, and takes them again once they expire")
    func replayCacheBound() async throws {
        let cache = DPoPReplayCache(capacity: 2)
        let validation = DPoPValidation(maximumAge: 60, replays: cache)
        let maker = DPoPProofMaker()
        let token = "token"
        let url = "https://api.example.com/x"
        let now = Date()
        for _ in 0..<2 {
            try await validation.check(
                [maker.proof("GET", url, accessToken: token, issuedAt: now)], method: "GET", url: url, accessToken: token,
                boundTo: maker.thumbprint, now: now)
        }
        await #expect(throws: AccessTokenError.self) {
            try await validation.check(
                [maker.proof("GET", url, accessToken: token, issuedAt: now)], method: "GET", url: url, accessToken: token,
                boundTo: maker.thumbprint, now: now)
        }
        let later = now.addingTimeInterval(120)
        try await validation.check(
            [maker.proof("GET", url, accessToken: token, issuedAt: later)], method: "GET", url: url, accessToken: token,
            boundTo: maker.thumbprint, now: later)
        #expect(cache.count == 1)
    }

    @Test("the example API over HTTP: a bound token with its proof is served; as a bearer token it gets a DPoP challenge")
    func exampleAPI() async throws {
        try await ExampleAPITests.withAPI { server, api in
            let maker = DPoPProofMaker()
            let token = try await Self.boundToken(server, maker)
            let url = api.appendingPathComponent("v1/me")
            var request = URLRequest(url: url)
            request.setValue("DPoP \(token)", forHTTPHeaderField: "Authorization")
            request.setValue(maker.proof("GET", url.absoluteString, accessToken: token, issuedAt: server.clock.now()), forHTTPHeaderField: "DPoP")
            let (body, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: body, as: UTF8.self))")
            let bearer = try await ExampleAPITests.get(url, authorization: "Bearer \(token)")
            #expect(bearer.status == 401)
            #expect(bearer.challenge?.hasPrefix("DPoP ") == true, "\(bearer.challenge ?? "")")
            #expect(bearer.challenge?.contains("algs=") == true)
        }
    }
}
