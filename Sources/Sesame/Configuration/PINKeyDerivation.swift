/// The scrypt (RFC 7914) cost of turning a PIN into the key that seals a device key, kept in each
/// record so it can be raised later. The default, N = 2^16, r = 8, p = 1, needs 64 MiB
/// (128 · r · N bytes) and about a fifth of a second: every offline guess costs that much, and
/// the server refuses all but a few online ones.
public struct PINKeyDerivation: Codable, Sendable, Equatable {
    public var logN: Int
    public var r: Int
    public var p: Int

    public init(logN: Int = 16, r: Int = 8, p: Int = 1) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// Bytes of memory one derivation needs.
    public var memoryBytes: Int { 128 * r * (1 << logN) }
}
