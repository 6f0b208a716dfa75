import Foundation
import Testing

@testable import SesameServer

#if canImport(Glibc)
    import Glibc
#endif

/// ``AllocatorTrim``: the freed memory glibc keeps between live blocks goes back to the system.
@Suite("Allocator trim")
struct AllocatorTrimTests {
    #if canImport(Glibc)
        @Test("on glibc the server trims its arenas, and a trim returns the pages of freed blocks held between live ones")
        func trimsFreedHoles() throws {
            #expect(AllocatorTrim.isAvailable)
            #expect(AllocatorTrim.service() != nil)
            // 64 blocks of 100 KB (below glibc's 128 KB mmap threshold: they come from an arena),
            // every other one freed: holes between live blocks, which freeing never trims.
            let blocks = (0..<64).map { _ in malloc(100 * 1024) }
            defer { for (index, block) in blocks.enumerated() where index % 2 == 1 { free(block) } }
            for block in blocks {
                let bytes = try #require(block)
                memset(bytes, 1, 100 * 1024)  // touched: resident
            }
            for (index, block) in blocks.enumerated() where index % 2 == 0 { free(block) }
            #expect(AllocatorTrim.trimNow(), "32 freed blocks of 100 KB and not one page returned")
        }
    #endif
}
