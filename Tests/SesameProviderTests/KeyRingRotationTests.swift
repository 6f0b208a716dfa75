import Foundation
import JWTKit
import SesameProtocol
import Testing
import StoreTesting
@testable import SesameProvider

@Suite("KeyRing: rotation with overlap")
struct KeyRingRotationTests {
    static func jwksKids(_ ring: KeyRing) async throws -> Set<String> {
        let document = try JSONDecoder().decode(JWKSDocument.self, from: try await ring.jwks())
        return Set(document.keys.map(\.kid))
    }

    @Test("rotation publishes new keys, old tokens verify until the overlap ends, new tokens use the new kid")
    func rotationOverlap() async throws {
        try await withKeyRing { ring, store, clock, _ in
            try await ring.ensureKeys()
            let oldKids = Set(try await ring.keys().map(\.kid))
            let oldToken = try await ring.sign(KeyRingTestPayload(sub: "a"), algorithm: "RS256", type: "JWT")

            let created = try await ring.rotate(overlap: 3600)
            #expect(created.map(\.algorithm).sorted() == ["ES256", "RS256"])
            let newKids = Set(created.map(\.kid))
            #expect(newKids.isDisjoint(with: oldKids))
            #expect(try await Self.jwksKids(ring) == oldKids.union(newKids))

            let newToken = try await ring.sign(KeyRingTestPayload(sub: "b"), algorithm: "RS256", type: "JWT")
            let newKid = try #require(try joseHeader(newToken)["kid"])
            #expect(newKids.contains(newKid))
            #expect(try await ring.verify(oldToken, as: KeyRingTestPayload.self).sub.value == "a")

            let retired = try await store.signingKeys().filter { oldKids.contains($0.kid) }
            #expect(retired.allSatisfy { $0.retiredAt != nil && $0.expiresAt == $0.retiredAt!.addingTimeInterval(3600) })

            clock.advance(by: 3599)
            #expect(try await Self.jwksKids(ring) == oldKids.union(newKids))
            clock.advance(by: 2)
            #expect(try await Self.jwksKids(ring) == newKids)
            let oldKid = try #require(try joseHeader(oldToken)["kid"])
            await #expect(throws: KeyRingError.unknownKey(kid: oldKid)) {
                _ = try await ring.verify(oldToken, as: KeyRingTestPayload.self)
            }
            #expect(try await ring.verify(newToken, as: KeyRingTestPayload.self).sub.value == "b")
            // Expired keys are pruned from the store.
            #expect(Set(try await store.signingKeys().map(\.kid)) == newKids)
        }
    }

    @Test("with publishAhead the new key is published at once but signs only from its activation")
    func publishAhead() async throws {
        try await withKeyRing { ring, _, clock, _ in
            try await ring.ensureKeys()
            let oldES = try #require(try await ring.keys().first { $0.algorithm == "ES256" }).kid
            let created = try await ring.rotate(overlap: 900, publishAhead: 30)
            let newES = try #require(created.first { $0.algorithm == "ES256" }).kid
            #expect(try await Self.jwksKids(ring).contains(newES))
            let before = try await ring.sign(KeyRingTestPayload(sub: "x"), algorithm: "ES256", type: "JWT")
            #expect(try joseHeader(before)["kid"] == oldES)
            clock.advance(by: 31)  // less than the 60 s reload interval: no reload needed
            let after = try await ring.sign(KeyRingTestPayload(sub: "x"), algorithm: "ES256", type: "JWT")
            #expect(try joseHeader(after)["kid"] == newES)
        }
    }

    @Test("a rotation by another process is picked up: signing within 60 s, unknown kids at once")
    func rotationByAnotherProcess() async throws {
        try await withKeyRing { server, store, clock, sandbox in
            try await server.ensureKeys()
            let oldRS = try #require(try await server.keys().first { $0.algorithm == "RS256" }).kid
            let cli = KeyRing(
                store: store, masterKey: try await sandbox.dataDirectory.masterKey(), logger: StoreSamples.logger,
                now: { clock.now() })
            let created = try await cli.rotate(overlap: 600)
            let newRS = try #require(created.first { $0.algorithm == "RS256" }).kid
            let newES = try #require(created.first { $0.algorithm == "ES256" }).kid

            // The server's cached snapshot still signs with the old key (it stays valid: the
            // overlap covers the reload interval).
            let cached = try await server.sign(KeyRingTestPayload(sub: "s"), algorithm: "RS256", type: "JWT")
            #expect(try joseHeader(cached)["kid"] == oldRS)
            clock.advance(by: 61)
            let refreshed = try await server.sign(KeyRingTestPayload(sub: "s"), algorithm: "RS256", type: "JWT")
            #expect(try joseHeader(refreshed)["kid"] == newRS)

            // A third key ring (another server process) verifies a token of a kid it has not
            // loaded yet, by reloading on the unknown kid.
            let other = KeyRing(
                store: store, masterKey: try await sandbox.dataDirectory.masterKey(), logger: StoreSamples.logger,
                now: { clock.now() })
            try await other.ensureKeys()
            let rotatedAgain = try await cli.rotate(overlap: 600)
            let newest = try #require(rotatedAgain.first { $0.algorithm == "ES256" }).kid
            #expect(newest != newES)
            let fromCLI = try await cli.sign(KeyRingTestPayload(sub: "c"), algorithm: "ES256", type: "JWT")
            #expect(try joseHeader(fromCLI)["kid"] == newest)
            #expect(try await other.verify(fromCLI, as: KeyRingTestPayload.self).sub.value == "c")
        }
    }
}
