import Foundation
import SesameProtocol

/// Who hears the store's changes: the store's own caches, and whoever asked
/// (``SQLIdentityStore/observeChanges(_:)``, the key ring).
final class StoreChangeRelay: Sendable {
    private let observers = LockedState<[@Sendable (StoreChange) -> Void]>([])
    private let listened = LockedState(false)

    /// Whether a listener has started (it delivers ``StoreChange/everything`` first).
    var isListening: Bool { listened.withLock { $0 } }

    func add(_ observer: @escaping @Sendable (StoreChange) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func deliver(_ change: StoreChange) {
        if change == .everything { listened.withLock { $0 = true } }
        for observer in observers.withLock({ $0 }) { observer(change) }
    }
}
