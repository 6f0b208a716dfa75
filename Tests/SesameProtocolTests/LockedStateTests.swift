import Foundation
import SesameProtocol
import Testing

/// Sesame's own lock (`LockedState`), which the SDK uses instead of `Mutex` so it runs on iOS 15.
@Suite("LockedState: the SDK's lock")
struct LockedStateTests {
    @Test("8 threads × 20,000 increments: every one counted, none lost")
    func exclusive() async {
        let counter = LockedState(0)
        let threads = 8, rounds = 20_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        // Real threads, not the cooperative pool: contention as in an app.
                        Thread {
                            for _ in 0..<rounds { counter.withLock { $0 += 1 } }
                            done.resume()
                        }.start()
                    }
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * rounds)
    }

    @Test("the closure's result and its typed error pass through; the lock is released after a throw")
    func resultsAndErrors() {
        struct Refused: Error, Equatable {}
        let state = LockedState([1, 2, 3])
        #expect(state.withLock { $0.reduce(0, +) } == 6)
        #expect(throws: Refused.self) {
            try state.withLock { (values: inout [Int]) throws(Refused) -> Void in
                values.append(4)
                throw Refused()
            }
        }
        // Not deadlocked, and the change made before the throw is kept.
        #expect(state.withLock { $0 } == [1, 2, 3, 4])
    }
}
