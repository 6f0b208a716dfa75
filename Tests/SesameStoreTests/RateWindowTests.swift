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
}
