import SesameStore

/// Hashes and verifies passwords and client secrets in PHC string format
/// (https://github.com/P-H-C/phc-string-format). The default implementation is
/// ``ScryptPasswordHasher`` (memory-hard, RFC 7914).
public protocol PasswordHasher: Sendable {
    /// A PHC string with a fresh random salt.
    func hash(_ password: String) throws -> String
    /// Constant-time verification; `false` for a malformed or unsupported PHC string.
    func verify(_ password: String, against phc: String) -> Bool
    /// `true` when `phc` uses weaker parameters than this hasher and should be re-hashed
    /// after a successful login.
    func needsRehash(_ phc: String) -> Bool
}
