import Foundation

/// Comparisons of secrets whose running time does not depend on where the inputs differ
/// (RFC 9700 §4.x guidance; OWASP). Use for `state`, CSRF tokens, hashes of codes and secrets.
package enum ConstantTime {
    /// `true` when both byte sequences are equal. Length is not secret; contents are.
    package static func equals<A: Collection<UInt8>, B: Collection<UInt8>>(_ lhs: A, _ rhs: B) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(lhs, rhs) { difference |= a ^ b }
        return difference == 0
    }

    /// `true` when both strings have the same UTF-8 bytes.
    package static func equals(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs
        var right = rhs
        return left.withUTF8 { a in right.withUTF8 { b in equalBytes(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b)) } }
    }

    /// `true` when both byte buffers are equal (the contiguous case, without generic dispatch).
    package static func equals(_ lhs: Data, _ rhs: Data) -> Bool {
        lhs.withUnsafeBytes { (a: UnsafeRawBufferPointer) -> Bool in
            rhs.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> Bool in equalBytes(a, b) }
        }
    }

    private static func equalBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
