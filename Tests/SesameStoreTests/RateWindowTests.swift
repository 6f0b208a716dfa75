import Foundation
import StoreTesting
import Testing
@testable import SesameStore

/// Fixed-window request counters (``RateWindowStore``): one statement per request, the window
/// starts over once it has passed, and concurrent requests are all counted.
@Suite("Store: shared request windows")
struct RateWindowTests {
    @Test("counts in a window, starts over after it, and counts concurrent requests exactly", arguments: StoreBackend.available)
    func windows(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let first = try await store.countRequest(key: "k", now: start, window: 900)
            #expect(first.count == 1 && first.windowStart == start)
            let second = try await store.countRequest(key: "k", now: start.addingTimeInterval(10), window: 900)
            #expect(second.count == 2 && second.windowStart == start)
            let next = try await store.countRequest(key: "k", now: start.addingTimeInterval(900), window: 900)
            #expect(next.count == 1 && next.windowStart == start.addingTimeInterval(900))

            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await store.countRequest(key: "busy", now: start, window: 900).count }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts.sorted() == Array(1...20), "every concurrent request is counted once")
        }
    }

    @Test("aligned windows: counts from several processes add up; a later window replaces an earlier one, never the reverse", arguments: StoreBackend.available)
    func alignedWindows(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let window = Date(timeIntervalSince1970: 1_800_000_000)
            #expect(try await store.addRequests(key: "rl:a", count: 3, windowStart: window) == 3)
            // "Another process" on the same database adds its own.
            let other = try await sandbox.open()
            #expect(try await other.addRequests(key: "rl:a", count: 2, windowStart: window) == 5)
            #expect(try await store.addRequests(key: "rl:a", count: 0, windowStart: window) == 5, "a zero count reads the total")
            let next = window.addingTimeInterval(60)
            #expect(try await other.addRequests(key: "rl:a", count: 1, windowStart: next) == 1)
            #expect(try await store.addRequests(key: "rl:a", count: 4, windowStart: window) == nil, "too late for the old window")
            #expect(try await store.addRequests(key: "rl:a", count: 0, windowStart: next) == 1, "the late count changed nothing")
            try await other.close()
        }
    }
}
