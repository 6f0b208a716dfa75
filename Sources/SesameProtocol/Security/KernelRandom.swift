import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's generator in one call: glibc's `getrandom(3)` (since 2.25), looked up at run
/// time because Swift's Glibc module does not export it. Flags 0: the urandom source, which
/// blocks only until the kernel's pool was first seeded at boot (`getrandom(2)`), the source
/// RFC 4086 §6.2 and the kernel's own documentation recommend for keys and tokens.
///
/// `nil` where there is no such function (Apple platforms, musl, an older glibc) or the call
/// fails for a reason other than an interruption (`ENOSYS` on a kernel before 3.17):
/// ``SecureRandom`` then draws through the standard library's generator.
package enum KernelRandom {
    private typealias GetRandom = @convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int

    /// The address of `getrandom`, resolved once; `nil` where there is none.
    private static let address: UInt? = {
        #if canImport(Glibc)
            // RTLD_DEFAULT (a null handle on glibc): the symbol as the process resolves it.
            return dlsym(nil, "getrandom").map { UInt(bitPattern: $0) }
        #else
            return nil
        #endif
    }()

    /// Whether values come from `getrandom` in one call (a test asserts it on glibc).
    package static var isAvailable: Bool { address != nil }

    /// `count` bytes from one `getrandom` call (more only when a signal interrupts it, or for
    /// more than the 33,554,431 bytes one call returns), or `nil` when it is unavailable.
    package static func bytes(_ count: Int) -> [UInt8]? {
        guard let address, let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        let getrandom = unsafeBitCast(pointer, to: GetRandom.self)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var filled = 0
            while filled < count {
                let read = getrandom(buffer.baseAddress! + filled, count - filled, 0)
                if read > 0 {
                    filled += read
                } else if read < 0, errno == EINTR {
                    continue
                } else {
                    failed = true
                    break
                }
            }
            // Unfilled bytes are zeroed, then discarded with `failed`.
            if filled < count { (buffer.baseAddress! + filled).initialize(repeating: 0, count: count - filled) }
            initialized = count
        }
        return failed ? nil : bytes
    }
}
