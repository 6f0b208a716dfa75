import TestSupport
import Foundation

import Testing
@testable import SesameProvider
import SesameStore

/// ``LoginThrottle`` and ``LoginThrottlePolicy`` without HTTP: the backoff schedule, the per-name
/// and per-address limits, in-flight admission, expiry, the bound on remembered keys and the
/// address keys. The endpoints are tested in `FirstParty/PasswordThrottleTests.swift`.
@Suite("Login throttle: policy and state")
struct LoginThrottleTests {
    let clock = ManualClock()

    init() { clock.freeze() }

    func throttle(_ policy: LoginThrottlePolicy = LoginThrottlePolicy()) -> LoginThrottle {
        let clock = clock
        return LoginThrottle(policy: policy, now: { clock.now() })
    }

    /// Admits and fails one attempt; the attempt must be admitted.
    func fail(_ throttle: LoginThrottle, _ login: String, address: String? = nil) throws {
        guard case .admitted(let ticket) = throttle.admit(login: login, address: address) else {
            Issue.record("\(login) was refused")
            throw CancellationError()
        }
        throttle.finish(ticket, .failed)
    }

    func succeed(_ throttle: LoginThrottle, _ login: String, address: String? = nil) throws {
        guard case .admitted(let ticket) = throttle.admit(login: login, address: address) else {
            Issue.record("\(login) was refused")
            throw CancellationError()
        }
        throttle.finish(ticket, .succeeded)
    }

    /// The wait of a refused attempt, or `nil` when it would be admitted (the probe is then
    /// abandoned, so it counts nothing).
    func retryAfter(_ throttle: LoginThrottle, _ login: String, address: String? = nil) -> Int? {
        switch throttle.admit(login: login, address: address) {
        case .refused(let seconds): return seconds
        case .admitted(let ticket):
            throttle.finish(ticket, .abandoned)
            return nil
        }
    }

    @Test("defaults: 5 failures per name, 30 s doubling to 15 min, 50 per address for 15 min, 100,000 keys")
    func defaults() {
        let policy = LoginThrottlePolicy()
        #expect(policy.failuresBeforeLockout == 5)
        #expect(policy.failureWindow == 900)
        #expect(policy.initialLockout == 30)
        #expect(policy.maximumLockout == 900)
        #expect(policy.failuresPerAddress == 50)
        #expect(policy.addressLockout == 900)
        #expect(policy.maximumTrackedKeys == 100_000)
    }

    @Test("backoff schedule: none below 5 failures, then 30, 60, 120, 240, 480 s, capped at 900 s")
    func backoffSchedule() {
        let policy = LoginThrottlePolicy()
        for failures in 0..<5 { #expect(policy.lockout(afterFailures: failures) == nil) }
        let schedule = (5...12).map { policy.lockout(afterFailures: $0) }
        #expect(schedule == [30, 60, 120, 240, 480, 900, 900, 900])
        #expect(policy.lockout(afterFailures: 10_000) == 900, "no overflow for long attacks")
        let custom = LoginThrottlePolicy(failuresBeforeLockout: 3, initialLockout: 10, maximumLockout: 35)
        #expect((2...6).map { custom.lockout(afterFailures: $0) } == [nil, 10, 20, 35, 35])
    }

    @Test("a login name: the 6th attempt waits 30 s, each further failure doubles, success resets")
    func perName() throws {
        let throttle = throttle()
        for _ in 0..<5 { try fail(throttle, "alice") }
        #expect(retryAfter(throttle, "alice") == 30)
        #expect(retryAfter(throttle, "bob") == nil, "other names are not affected")
        clock.advance(by: 29)
        #expect(retryAfter(throttle, "alice") == 1)
        clock.advance(by: 1)
        try fail(throttle, "alice")
        #expect(retryAfter(throttle, "alice") == 60)
        clock.advance(by: 60)
        try fail(throttle, "alice")
        #expect(retryAfter(throttle, "alice") == 120)
        clock.advance(by: 120)
        try succeed(throttle, "alice")
        // Reset: four failures are allowed again before the fifth locks.
        for _ in 0..<4 { try fail(throttle, "alice") }
        #expect(retryAfter(throttle, "alice") == nil)
        try fail(throttle, "alice")
        #expect(retryAfter(throttle, "alice") == 30)
    }

    @Test("names are normalized (case, surrounding spaces); unknown names count like real ones")
    func normalization() throws {
        let throttle = throttle()
        for login in ["Alice", " alice", "ALICE ", "alice", "aLiCe"] { try fail(throttle, login) }
        #expect(retryAfter(throttle, "alice") == 30)
        #expect(LoginThrottle.loginKey("Ali\u{0063}\u{0327}e") == LoginThrottle.loginKey("ali\u{00E7}e"), "NFC")
        #expect(LoginThrottle.loginKey("alice") != LoginThrottle.loginKey("alice@example.com"))
    }

    @Test("failures more than 15 minutes apart start over; a lock is forgotten 15 minutes after it ends")
    func window() throws {
        let throttle = throttle()
        for _ in 0..<4 { try fail(throttle, "alice") }
        clock.advance(by: 15 * 60)
        for _ in 0..<4 { try fail(throttle, "alice") }
        #expect(retryAfter(throttle, "alice") == nil)
        try fail(throttle, "alice")
        #expect(retryAfter(throttle, "alice") == 30)
        clock.advance(by: 30 + 15 * 60)
        #expect(retryAfter(throttle, "alice") == nil)
        #expect(throttle.trackedKeyCount == 0, "expired entries are forgotten")
        for _ in 0..<4 { try fail(throttle, "alice") }
        #expect(retryAfter(throttle, "alice") == nil, "the schedule started over")
    }

    @Test("an address: 50 failures over any names lock it for 15 minutes, successes do not reset it")
    func perAddress() throws {
        let throttle = throttle()
        let address = "203.0.113.7"
        for index in 0..<50 {
            if index == 20 { try succeed(throttle, "someone", address: address) }
            try fail(throttle, "user\(index / 5)", address: address)
        }
        #expect(retryAfter(throttle, "fresh-name", address: address) == 900)
        #expect(retryAfter(throttle, "fresh-name", address: "198.51.100.1") == nil, "other addresses are not affected")
        #expect(retryAfter(throttle, "fresh-name") == nil, "the name itself is not locked")
        clock.advance(by: 900)
        try fail(throttle, "fresh-name", address: address)
        #expect(retryAfter(throttle, "fresh-name", address: address) == nil, "a new window")
    }

    @Test("the address window counts from its first failure")
    func addressWindow() throws {
        let throttle = throttle(LoginThrottlePolicy(failuresPerAddress: 3))
        try fail(throttle, "a", address: "10.0.0.1")
        try fail(throttle, "b", address: "10.0.0.1")
        clock.advance(by: 15 * 60)
        try fail(throttle, "c", address: "10.0.0.1")
        #expect(retryAfter(throttle, "d", address: "10.0.0.1") == nil)
    }

    @Test("attempts in flight count: parallel guesses cannot overshoot the limit")
    func inFlight() throws {
        let throttle = throttle()
        var tickets: [LoginThrottle.Ticket] = []
        for _ in 0..<5 {
            guard case .admitted(let ticket) = throttle.admit(login: "alice", address: nil) else {
                Issue.record("refused below the limit")
                return
            }
            tickets.append(ticket)
        }
        #expect(retryAfter(throttle, "alice") == 1, "five checks are running")
        throttle.finish(tickets.removeLast(), .abandoned)
        #expect(retryAfter(throttle, "alice") == nil, "an abandoned check counts nothing")
        for ticket in tickets { throttle.finish(ticket, .failed) }
        try fail(throttle, "alice")
        #expect(retryAfter(throttle, "alice") == 30)
        // Past the threshold, one attempt at a time.
        clock.advance(by: 30)
        guard case .admitted(let single) = throttle.admit(login: "alice", address: nil) else {
            Issue.record("refused after the lockout")
            return
        }
        #expect(retryAfter(throttle, "alice") == 1)
        throttle.finish(single, .failed)
        #expect(retryAfter(throttle, "alice") == 60)
    }

    @Test("at most maximumTrackedKeys names and addresses are remembered; the oldest go first")
    func evictionBound() throws {
        let throttle = throttle(LoginThrottlePolicy(maximumTrackedKeys: 100))
        for _ in 0..<4 { try fail(throttle, "oldest") }
        for index in 0..<1_000 {
            try fail(throttle, "name-\(index)", address: "10.0.\(index / 256).\(index % 256)")
            #expect(throttle.trackedKeyCount <= 100)
        }
        #expect(throttle.trackedKeyCount == 100)
        // The recent names are still counted, the oldest was forgotten.
        for _ in 0..<4 { try fail(throttle, "name-999") }
        #expect(retryAfter(throttle, "name-999") == 30)
        try fail(throttle, "oldest")
        #expect(retryAfter(throttle, "oldest") == nil, "forgotten: its four failures were evicted")

        // The default bound holds under a flood of distinct names too.
        let large = self.throttle(LoginThrottlePolicy(maximumTrackedKeys: 10_000))
        for index in 0..<25_000 { try fail(large, "flood-\(index)") }
        #expect(large.trackedKeyCount == 10_000)
    }
}
