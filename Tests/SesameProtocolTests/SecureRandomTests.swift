import Foundation
import SesameProtocol
import Testing

/// ``SecureRandom``'s UUIDs (RFC 9562 §5.4): version 4, the RFC variant, lowercase, and read by
/// Foundation as the same UUID; its bytes from one `getrandom` call on glibc (``KernelRandom``).
@Suite("Secure random: bytes and version 4 UUIDs")
struct SecureRandomTests {
    @Test("a UUID is 8-4-4-4-12 lowercase hex digits with version 4 and variant 10, Foundation's reading of itself, never repeated")
    func uuids() throws {
        let uuids = (0..<2_000).map { _ in SecureRandom.uuid() }
        #expect(Set(uuids).count == uuids.count)
        var nibbles = Set<Character>()
        for text in uuids {
            let groups = text.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.map(\.count) == [8, 4, 4, 4, 12], "\(text)")
            #expect(text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D }, "\(text)")
            #expect(groups[2].first == "4", "version 4: \(text)")
            #expect("89ab".contains(groups[3].first!), "variant 10: \(text)")
            let parsed = try #require(UUID(uuidString: text))
            #expect(parsed.uuidString.lowercased() == text)
            nibbles.formUnion(text.filter { $0 != "-" })
        }
        #expect(nibbles.count == 16, "every hex digit appears")
    }

    @Test("bytes come from getrandom on glibc, at every length from 0 to 300 and at 70,000")
    func kernelBytes() throws {
        #if canImport(Glibc)
            #expect(KernelRandom.isAvailable, "glibc has had getrandom since 2.25")
        #endif
        for count in 0...300 {
            #expect(SecureRandom.bytes(count).count == count)
        }
        #expect(SecureRandom.bytes(70_000).count == 70_000)
        #expect(KernelRandom.bytes(0) == (KernelRandom.isAvailable ? [] : nil))
    }

    @Test("64 KiB of random bytes hold every byte value, in counts a uniform source gives, and two draws differ")
    func distribution() throws {
        let bytes = SecureRandom.bytes(65_536)
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes { counts[Int(byte)] += 1 }
        // 256 expected per value; a uniform source falls outside 150...370 with a probability
        // below 1e-9 for any of the 256 values.
        #expect(counts.allSatisfy { (150...370).contains($0) }, "\(counts.min()!)...\(counts.max()!)")
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
        #expect(SecureRandom.token() != SecureRandom.token())
        #expect(SecureRandom.token().utf8.count == 43, "32 bytes in base64url without padding")
    }
}
