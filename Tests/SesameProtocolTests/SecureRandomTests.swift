import Foundation
import SesameProtocol
import Testing

/// ``SecureRandom``'s UUIDs (RFC 9562 §5.4): version 4, the RFC variant, lowercase, and read by
/// Foundation as the same UUID.
@Suite("Secure random: version 4 UUIDs")
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
}
