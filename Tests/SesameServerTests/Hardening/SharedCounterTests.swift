import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Counters that are exact everywhere (issue #44): password guesses are counted before they are
/// checked in the counters every process shares (``SharedLoginThrottle``), so 20 guesses at once
/// over two server processes check exactly the limit, as one process does.
@Suite("Password throttling across processes")
struct SharedCounterTests {
    @Test("20 wrong passwords at once over two processes sharing PostgreSQL: exactly 5 are checked", .needsPostgreSQL)
    func passwordRace() async throws {
        let hasher = CountingPasswordHasher()
        try await withTestServer(.postgres, passwordHasher: hasher) { first in
            let second = try await first.sibling()
            do {
                first.clock.freeze()
                let before = hasher.verifications
                let flows = [ChallengeFlow(first), ChallengeFlow(first, http: second.portClient())]
                let statuses = try await statusesAtOnce(20, over: [first.client(), second.portClient()]) { client in
                    let flow = ChallengeFlow(first, http: client)
                    return try await flow.start(password: "not the password").status
                }
                #expect(hasher.verifications - before == 5, "checked: \(hasher.verifications - before), answers \(statuses.sorted())")
                #expect(statuses.filter { $0 == 400 }.count == 5, "\(statuses.sorted())")
                #expect(statuses.filter { $0 == 429 }.count == 15, "\(statuses.sorted())")
                // The name is locked on both processes; the right password too waits.
                for flow in flows { #expect(try await flow.start().status == 429) }
                #expect(hasher.verifications - before == 5)
                // After the lockout, one attempt at a time: the right one goes through.
                first.clock.advance(by: 31)
                #expect(try await flows[1].start().status == 200)
                try await second.shutdown()
            } catch {
                try? await second.shutdown()
                throw error
            }
        }
    }

    @Test("on one process too: 20 at once check exactly 5, and the address window starts over after its lockout")
    func oneProcess() async throws {
        let hasher = CountingPasswordHasher()
        try await withTestServer(passwordHasher: hasher) { server in
            server.clock.freeze()
            let before = hasher.verifications
            let statuses = try await statusesAtOnce(20, over: [server.client()]) { client in
                try await ChallengeFlow(server, http: client).start(password: "not the password").status
            }
            #expect(hasher.verifications - before == 5, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 15)
        }
    }
}
