/// The scrypt (RFC 7914) cost of turning a PIN into the key that seals a device key, kept in each
/// record so it can be raised later. The default, N = 2^16, r = 8, p = 1, needs 64 MiB
/// (128 · r · N bytes) and about a fifth of a second: every offline guess costs that much, and
/// the server refuses all but a few online ones.
public struct PINKeyDerivation: Codable, Sendable, Equatable {
    /// The base-2 logarithm of scrypt's CPU/memory cost `N` (RFC 7914 §2); 16 means N = 65536.
    public var logN: Int
    /// scrypt's block size `r` (RFC 7914 §2); memory grows linearly with it.
    public var r: Int
    /// scrypt's parallelization `p` (RFC 7914 §2); time grows linearly with it, memory does not.
    public var p: Int

    /// A cost of N = 2^`logN`, `r`, `p`; the defaults are the 64 MiB cost described above.
    public init(logN: Int = 16, r: Int = 8, p: Int = 1) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// Bytes of memory one derivation needs.
    public var memoryBytes: Int { 128 * r * (1 << logN) }
}
