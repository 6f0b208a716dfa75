import Crypto
import Foundation

/// Sesame's abuse challenge, on the wire (docs/abuse-protection.md): what the server sends in the
/// `challenge` member of an HTTP 429 `proof_of_work_required` (error_code 4001) answer, instead
/// of doing the work of a sign-in, sign-up or password-reset request that looks automated.
///
/// - `proof_of_work`: find a `nonce` (an unsigned 64-bit integer) such that
///   SHA-256(`seed` ‖ big-endian 8-byte `nonce`) starts with at least `difficulty` zero bits
///   (``ProofOfWork``). The seed is 56 bytes, so every attempt hashes exactly 64 bytes: two
///   SHA-256 compressions, no shortcut by a precomputed midstate.
/// - `clear_pass`: no work; the round-trip alone is asked for (difficulty 0, no seed).
///
/// The client repeats the same request with the header `Sesame-Challenge-Solution:
/// <token>:<nonce>` (``ProofOfWorkSolution``). The token is opaque and MAC-protected by the
/// server; it binds the challenge to the request it was issued for and expires at
/// `expires_at`. Each token is accepted once.
public struct ProofOfWorkChallenge: Codable, Sendable, Equatable {
    /// `proof_of_work` or `clear_pass`.
    public enum Kind: String, Codable, Sendable {
        /// `proof_of_work`: find a nonce whose hash has `difficulty` leading zero bits (``ProofOfWork``).
        case proofOfWork = "proof_of_work"
        /// `clear_pass`: no work; repeat the request with the token and nonce 0.
        case clearPass = "clear_pass"
    }

    /// What is asked: work or a bare round-trip (JSON member `type`).
    public var kind: Kind
    /// Opaque; sent back unchanged with the solution.
    public var token: String
    /// `SHA-256` (the only algorithm).
    public var algorithm: String
    /// Base64url of ``ProofOfWork/seedLength`` bytes; empty for a clear pass.
    public var seed: String
    /// Leading zero bits the digest must have; 0 for a clear pass.
    public var difficulty: Int
    /// When the token stops being accepted (seconds since 1970).
    public var expiresAt: Int

    /// A challenge as the server issues it; `algorithm` is always `SHA-256`.
    public init(kind: Kind, token: String, seed: String, difficulty: Int, expiresAt: Int) {
        self.kind = kind
        self.token = token
        self.algorithm = ProofOfWork.algorithm
        self.seed = seed
        self.difficulty = difficulty
        self.expiresAt = expiresAt
    }

    /// The seed's bytes, `nil` when it is not base64url of ``ProofOfWork/seedLength`` bytes.
    public var seedBytes: [UInt8]? {
        guard let bytes = Base64URL.decode(bytes: Array(seed.utf8)[...]), bytes.count == ProofOfWork.seedLength
        else { return nil }
        return bytes
    }

    enum CodingKeys: String, CodingKey {
        case kind = "type"
        case token, algorithm, seed, difficulty
        case expiresAt = "expires_at"
    }
}

/// The answer to a ``ProofOfWorkChallenge``: the token it came with and the nonce found
/// (0 for a clear pass), sent as the `Sesame-Challenge-Solution` header, `<token>:<nonce>`.
public struct ProofOfWorkSolution: Sendable, Equatable {
    /// The request header that carries a solution.
    public static let headerName = "Sesame-Challenge-Solution"

    /// The challenge's `token`, unchanged.
    public var token: String
    /// The nonce found; 0 for a clear pass.
    public var nonce: UInt64

    /// The solution of the challenge that carried `token`.
    public init(token: String, nonce: UInt64) {
        self.token = token
        self.nonce = nonce
    }

    /// `<token>:<nonce>`.
    public var headerValue: String { "\(token):\(nonce)" }

    /// Parses a header value; `nil` when it is not `<token>:<decimal nonce>`.
    public init?(headerValue: String) {
        let value = headerValue.trimmingCharacters(in: .whitespaces)
        guard let colon = value.lastIndex(of: ":"), let nonce = UInt64(value[value.index(after: colon)...]) else {
            return nil
        }
        let token = String(value[..<colon])
        guard !token.isEmpty, token.utf8.count <= 1024 else { return nil }
        self.init(token: token, nonce: nonce)
    }
}

/// The hash puzzle of ``ProofOfWorkChallenge``: SHA-256(seed ‖ nonce) with at least
/// `difficulty` leading zero bits. A solver tries about 2^difficulty nonces on average.
public enum ProofOfWork {
    /// The only algorithm.
    public static let algorithm = "SHA-256"
    /// Seed bytes: with the 8-byte nonce, one 64-byte input per attempt.
    public static let seedLength = 56
    /// The highest difficulty anyone should ask for or try (2^40 hashes is hours on a phone).
    public static let maximumDifficulty = 40

    /// The 64-byte input of an attempt: `seed` followed by `nonce` in big-endian order.
    public static func input(seed: [UInt8], nonce: UInt64) -> [UInt8] {
        var bytes = seed
        withUnsafeBytes(of: nonce.bigEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Leading zero bits of a digest.
    public static func leadingZeroBits<D: Sequence<UInt8>>(_ digest: D) -> Int {
        var bits = 0
        for byte in digest {
            if byte == 0 {
                bits += 8
                continue
            }
            return bits + byte.leadingZeroBitCount
        }
        return bits
    }

    /// Whether `nonce` solves the puzzle of `seed` at `difficulty`.
    public static func isSolution(seed: [UInt8], nonce: UInt64, difficulty: Int) -> Bool {
        guard difficulty > 0 else { return true }
        return leadingZeroBits(SHA256.hash(data: input(seed: seed, nonce: nonce))) >= difficulty
    }
}
