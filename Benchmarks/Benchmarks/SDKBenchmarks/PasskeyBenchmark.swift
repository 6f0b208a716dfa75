import Benchmark
import Crypto
import Foundation
import SesameProtocol
import SesameServer

/// Issue #20 target: a passkey assertion's full verification (WebAuthn Level 3 §7.2 steps 7–22:
/// base64url, client data JSON, type, challenge, origin, authenticator data, flags, BE, COSE key,
/// signature, counter) ≥ 0.9× the rate of the bare ES256 signature check of the same key and
/// bytes, both measured in the same iteration. The store's lookup and counter update (steps 6
/// and 24) are the database's and not part of either.
let assertionsPerSecond = BenchmarkMetric.custom("assertions/s", polarity: .prefersLarger, useScalingFactor: false)
let bareSignaturesPerSecond = BenchmarkMetric.custom("bare ES256 verifications/s", polarity: .prefersLarger, useScalingFactor: false)
let percentOfBare = BenchmarkMetric.custom("% of bare signature rate", polarity: .prefersLarger, useScalingFactor: false)

func passkeyBenchmarks() {
    Benchmark(
        "Passkey assertion verification (§7.2 steps 7–22) vs bare ES256 signature check",
        configuration: .init(
            metrics: [.wallClock, assertionsPerSecond, bareSignaturesPerSecond, percentOfBare], warmupIterations: 2,
            maxDuration: .seconds(5), maxIterations: 15)
    ) { benchmark in
        let rounds = 400
        let key = P256.Signing.PrivateKey()
        let factory = AuthenticatorResponseFactory(key: key, credentialID: Data(FixtureBytes.random(32)))
        let challenge = Base64URL.encode(FixtureBytes.random(32))
        let assertion = try factory.assertion(
            challenge: challenge, userHandle: Data("user".utf8),
            .init(origin: "https://id.example.com", rpID: "id.example.com", signCount: 7))
        let verifier = PasskeyAssertionVerifier(relyingPartyID: "id.example.com", origins: ["https://id.example.com"])
        let stored = PasskeyAssertionVerifier.Stored(
            publicKey: factory.encodedPublicKey, signCount: 6, backupEligible: false)
        // The bare check: the same signature over the same bytes, with the key already parsed.
        let signature = Base64URL.decode(assertion.response.signature)!
        let message = Base64URL.decode(assertion.response.authenticatorData)!
            + Data(SHA256.hash(data: Base64URL.decode(assertion.response.clientDataJSON)!))
        let publicKey = key.publicKey
        let clock = ContinuousClock()

        // Interleaved blocks, so that both kinds see the same machine (a shared VM's speed drifts
        // within an iteration).
        var full = Duration.zero
        var bare = Duration.zero
        benchmark.startMeasurement()
        for _ in 0..<(rounds / 20) {
            let fullStart = clock.now
            for _ in 0..<20 {
                blackHole(try verifier.verify(assertion, challenge: challenge, stored: stored, requiresUserVerification: true))
            }
            full += clock.now - fullStart
            let bareStart = clock.now
            for _ in 0..<20 {
                let parsed = try P256.Signing.ECDSASignature(derRepresentation: signature)
                blackHole(publicKey.isValidSignature(parsed, for: message))
            }
            bare += clock.now - bareStart
        }
        benchmark.stopMeasurement()

        let fullRate = Double(rounds) / seconds(full)
        let bareRate = Double(rounds) / seconds(bare)
        benchmark.measurement(assertionsPerSecond, Int(fullRate))
        benchmark.measurement(bareSignaturesPerSecond, Int(bareRate))
        benchmark.measurement(percentOfBare, Int(100 * fullRate / bareRate))
    }
}

