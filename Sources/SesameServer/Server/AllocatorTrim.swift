import SesameProvider

#if canImport(Glibc)
    import Glibc
#endif

/// Gives back to the system the memory that glibc's allocator keeps after a burst of work
/// (`malloc_trim(0)`, every ``interval`` while the server runs).
///
/// glibc gives each thread that allocates an arena of its own and returns an arena's freed pages
/// only from its top, so after a burst (a database restart's reconnections and retries, a spike
/// of sign-ins) the freed memory between live blocks stays resident until the same sizes are
/// asked for again. Issue #50's soak saw a server's resting memory step up by about 3 MB at each
/// PostgreSQL restart and stay there; the discovery load left 2.3 MB of freed memory in the
/// arenas, which one `malloc_trim(0)` returned (`MADV_DONTNEED` on the free pages, the blocks
/// stay where they are). A call took 0.08 ms on average and 0.24 ms at most, every 0.5 s under a
/// discovery load of 80,000 requests a second (an `LD_PRELOAD` shim timing it).
///
/// On other C libraries (musl, Darwin) there is nothing to call: ``service()`` is `nil`.
enum AllocatorTrim {
    /// How often the arenas are trimmed.
    static let interval: Duration = .seconds(10)

    /// A service of the server's group that trims every ``interval``; `nil` without glibc.
    static func service() -> PeriodicService? {
        guard isAvailable else { return nil }
        return PeriodicService(interval: interval) { trimNow() }
    }

    /// Whether this process's C library can trim (glibc's `malloc_trim`).
    static var isAvailable: Bool { symbol != nil }

    /// Trims now; `true` when memory was returned to the system.
    @discardableResult
    static func trimNow() -> Bool {
        guard let address = symbol else { return false }
        let trim = unsafeBitCast(address, to: (@convention(c) (Int) -> Int32).self)
        return trim(0) == 1
    }

    /// `malloc_trim`, looked up at run time: Swift's Glibc module does not export it.
    private static var symbol: UnsafeMutableRawPointer? {
        #if canImport(Glibc)
            // RTLD_DEFAULT (a null handle on glibc): the symbol as the process resolves it.
            return dlsym(nil, "malloc_trim")
        #else
            return nil
        #endif
    }
}
