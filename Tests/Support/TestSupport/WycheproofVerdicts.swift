import Testing

/// Judges verification outcomes against Wycheproof's `result` and counts them.
///
/// The rule: a `valid` vector must verify and an `invalid` one must not; an `acceptable` one
/// (legal but weak, e.g. a PKCS#1 DigestInfo without the NULL parameter) may go either way and
/// is only counted. A key the path refuses to load verifies nothing: right for `invalid`
/// vectors; for `valid` ones a wrong verdict unless the key is outside what JOSE requires
/// (RSA keys shorter than 2048 bits, RFC 7518 §3.3 and §3.5), which a verifier may refuse.
public struct WycheproofVerdicts {
    public var valid = 0
    public var invalid = 0
    public var acceptable = 0
    /// `acceptable` vectors that verified.
    public var acceptableVerified = 0
    public var wrong = 0

    public init() {}

    public var total: Int { valid + invalid + acceptable }

    /// Records one outcome; a wrong verdict is an issue naming the vector.
    public mutating func record(
        _ test: WycheproofFile.Case, verified: Bool, keyLoaded: Bool, keyWithinJOSE: Bool, path: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let isWrong: Bool
        switch test.result {
        case .valid:
            valid += 1
            isWrong = !verified && (keyLoaded || keyWithinJOSE)
        case .invalid:
            invalid += 1
            isWrong = verified
        case .acceptable:
            acceptable += 1
            if verified { acceptableVerified += 1 }
            isWrong = false
        }
        if isWrong { wrong += 1 }
        #expect(
            !isWrong,
            """
            \(path): tcId \(test.tcId) is \(test.result.rawValue) but \(verified ? "verified" : "was rejected")\
            \(keyLoaded ? "" : " (key refused)"): \(test.comment ?? "") \(test.flags ?? [])
            """,
            sourceLocation: sourceLocation)
    }
}
