import Benchmark
import Crypto
import Foundation
import JWTKit
import Synchronization
import SesameProtocol
import SesameResourceServer
import _CryptoExtras

/// Issue #30 target: an API's full RFC 9068 §4 validation (`AccessTokenValidator`: split,
/// header, `typ`, `alg`, the key lookup in the cached JWKS, the signature, the claims, `iss`,
/// `aud`, times, scopes) at ≥ 0.9× the rate of the bare RSA signature check of the same token
/// (swift-crypto's `isValidSignature` over the signing input, nothing else). jwt-kit's
/// signature-only verification of the same token is reported alongside. The three run
/// interleaved in blocks within each iteration, so a change in the machine's speed hits all.
let accessValidationsPerSecond = BenchmarkMetric.custom("validations/s", polarity: .prefersLarger, useScalingFactor: false)
let bareRSAPerSecond = BenchmarkMetric.custom("bare RSA verify/s", polarity: .prefersLarger, useScalingFactor: false)
let accessJWTKitPerSecond = BenchmarkMetric.custom("jwt-kit signature-only/s", polarity: .prefersLarger, useScalingFactor: false)
let percentOfBareRSA = BenchmarkMetric.custom("% of bare RSA rate", polarity: .prefersLarger, useScalingFactor: false)

let awaitMetric = BenchmarkMetric.custom("ns per empty await", polarity: .prefersSmaller, useScalingFactor: false)
let probeMetric = BenchmarkMetric.custom("jwt-kit algorithm.verify/s", polarity: .prefersLarger, useScalingFactor: false)

/// A JWKS served from memory: the validator's keys without a network.
struct InMemoryKeySet: KeySetTransport {
    let body: Data
    func get(_ url: URL) async throws -> (status: Int, body: Data) { (200, body) }
}

struct BenchAccessTokenClaims: JWTPayload {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var jti: String
    var client_id: String
    var scope: String
    var auth_time: Int
    var acr: String
    var amr: [String]
    var sid: String

    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// One RSA key for every iteration: generating it costs more than the iteration measures.
let accessTokenBenchmarkKey = Mutex<_RSA.Signing.PrivateKey?>(nil)

/// `count` runs of `body`, timed inside one nonisolated function: the loop runs on the global
/// executor like a server's request handler, so no call hops between executors (the benchmark's
/// closure itself runs on the main actor, and a hop there costs more than the validation).
func timedBlock(count: Int, _ body: () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<count { try await body() }
    return clock.now - start
}

/// An async call that does nothing: what one `await` costs in this harness.
@inline(never)
func emptyAsync(_ value: Int) async -> Int { value &+ 1 }

func accessTokenValidationBenchmarks() {
    Benchmark(
        "Access token validation RS256 (RFC 9068 §4, AccessTokenValidator) vs bare RSA signature check",
        configuration: .init(
            metrics: [.wallClock, awaitMetric, probeMetric, accessValidationsPerSecond, bareRSAPerSecond, accessJWTKitPerSecond, percentOfBareRSA],
            warmupIterations: 2, maxDuration: .seconds(6), maxIterations: 15)
    ) { benchmark in
        let issuer = "https://id.example.com"
        let rsa = try accessTokenBenchmarkKey.withLock { key in
            if let key { return key }
            let made = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            key = made
            return made
        }
        let signer = JWTKeyCollection()
        await signer.add(rsa: try Insecure.RSA.PrivateKey(backing: rsa), digestAlgorithm: .sha256, kid: "rs")
        let kit = JWTKeyCollection()
        await kit.add(rsa: try Insecure.RSA.PublicKey(backing: rsa.publicKey), digestAlgorithm: .sha256, kid: "rs")
        let now = Int(Date().timeIntervalSince1970)
        var header = JWTHeader()
        header.typ = "at+jwt"
        let token = try await signer.sign(
            BenchAccessTokenClaims(
                iss: issuer, sub: "248289761001", aud: issuer, exp: now + 3600, iat: now, jti: UUID().uuidString,
                client_id: "bench-app", scope: "openid profile email offline_access", auth_time: now,
                acr: "urn:sesame:loa:1", amr: ["pwd", "otp"], sid: UUID().uuidString),
            kid: "rs", header: header)
        let jwks = try JSONSerialization.data(withJSONObject: ["keys": [try TokenFixtures.jwk(rsa: rsa.publicKey, kid: "rs")]])
        let validator = AccessTokenValidator(
            issuer: issuer, audience: issuer,
            keys: JWKSCache(jwksURI: URL(string: "https://id.example.com/jwks.json")!, transport: InMemoryKeySet(body: jwks)))
        _ = try await validator.validate(token, requiredScopes: ["profile"])

        let parts = token.split(separator: ".")
        let signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        let signatureBytes = Array(Base64URL.decode(String(parts[2]))!)
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signatureBytes)
        let publicKey = rsa.publicKey
        let block = 100
        let clock = ContinuousClock()
        var full = Duration.zero, bare = Duration.zero, jwtKit = Duration.zero, rounds = 0
        let algorithm = try await kit.getKey(for: "rs")
        var probe = Duration.zero
        var awaitCost = Duration.zero

        benchmark.startMeasurement()
        for _ in 0..<4 {
            var start = clock.now
            for _ in 0..<block {
                blackHole(publicKey.isValidSignature(signature, for: signingInput, padding: .insecurePKCS1v1_5))
            }
            bare += clock.now - start
            full += try await timedBlock(count: block) {
                blackHole(try await validator.validate(token, requiredScopes: ["profile"]))
            }
            jwtKit += try await timedBlock(count: block) { blackHole(try await kit.verify(token, as: SignatureOnly.self)) }
            start = clock.now
            for _ in 0..<block { blackHole(try algorithm.verify(signatureBytes, signs: signingInput)) }
            probe += clock.now - start
            awaitCost += await timedBlock(count: block) { blackHole(await emptyAsync(block)) }
            rounds += block
        }
        benchmark.stopMeasurement()
        let fullRate = Double(rounds) / seconds(full)
        let bareRate = Double(rounds) / seconds(bare)
        benchmark.measurement(accessValidationsPerSecond, Int(fullRate))
        benchmark.measurement(bareRSAPerSecond, Int(bareRate))
        benchmark.measurement(accessJWTKitPerSecond, Int(Double(rounds) / seconds(jwtKit)))
        benchmark.measurement(percentOfBareRSA, Int(100 * fullRate / bareRate))
        benchmark.measurement(probeMetric, Int(Double(rounds) / seconds(probe)))
        benchmark.measurement(awaitMetric, Int(seconds(awaitCost) * 1e9 / Double(rounds)))
    }
}
