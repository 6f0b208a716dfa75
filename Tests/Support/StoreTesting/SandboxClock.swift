import Foundation
import Synchronization

/// A clock the key-ring tests move forward instead of sleeping.
public final class SandboxClock: Sendable {
    private let current: Mutex<Date>
    public init(_ start: Date = Date()) { current = Mutex(start) }
    public var now: Date { current.withLock { $0 } }
    public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
