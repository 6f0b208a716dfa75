#if canImport(os)
    import os
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#endif

/// A value guarded by Sesame's own lock: `os_unfair_lock` on Apple platforms, a
/// `pthread_mutex_t` elsewhere (the pattern of swift-certificates' `LockedValueBox`).
///
/// The SDK and the resource-server library use it instead of the standard library's `Mutex` and
/// `Atomic`, which need iOS 18 and macOS 15 (the `Synchronization` module): with it the SDK's
/// package (`SDK/`) declares iOS 15, macOS 13, tvOS 15, watchOS 8 and visionOS 1. The server
/// mostly uses it too: on Linux `Mutex` is a priority-inheritance futex, and a test run on this
/// project's CI machine once died in `Mutex._lockSlow` ("Unknown error occurred while attempting
/// to acquire a Mutex": the kernel refused `FUTEX_LOCK_PI`); a plain `pthread_mutex_t` has no
/// such failure mode, and swift-nio's `NIOLock` is the same design. (The server's hot paths on
/// the event loop, `StaticDocuments` and the connection cap, keep `Mutex` and `Atomic`, where the
/// uncontended fast path never reaches the futex.) Hold it only for short, synchronous work;
/// never across an `await` (the closure is synchronous, so it cannot).
package final class LockedState<Value>: @unchecked Sendable {
    #if canImport(os)
        private typealias Primitive = os_unfair_lock
    #else
        private typealias Primitive = pthread_mutex_t
    #endif

    private let primitive: UnsafeMutablePointer<Primitive>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        primitive = UnsafeMutablePointer<Primitive>.allocate(capacity: 1)
        #if canImport(os)
            primitive.initialize(to: os_unfair_lock())
        #else
            primitive.initialize(to: pthread_mutex_t())
            let created = pthread_mutex_init(primitive, nil)
            precondition(created == 0, "pthread_mutex_init failed: \(created)")
        #endif
    }

    deinit {
        #if !canImport(os)
            pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    private func lock() {
        #if canImport(os)
            os_unfair_lock_lock(primitive)
        #else
            let status = pthread_mutex_lock(primitive)
            precondition(status == 0, "pthread_mutex_lock failed: \(status)")
        #endif
    }

    private func unlock() {
        #if canImport(os)
            os_unfair_lock_unlock(primitive)
        #else
            let status = pthread_mutex_unlock(primitive)
            precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
        #endif
    }
}
