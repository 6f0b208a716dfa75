import Crypto

extension Base64URL {
    /// base64url (RFC 4648 §5, unpadded) of the SHA-256 of `text`'s UTF-8, or of the digest's
    /// first `prefix` bytes: a PKCE S256 challenge (RFC 7636 §4.2), a DPoP `ath` (RFC 9449 §4.2),
    /// a stored secret's digest, an ID token's `at_hash` (OIDC Core §3.1.3.6, the left half), a
    /// JWK thumbprint (RFC 7638 §3).
    ///
    /// Hashes the string's own bytes and encodes from the digest's, where
    /// `Base64URL.encode(SHA256.hash(data: Data(text.utf8)))` copied the text into `Data` and
    /// the digest into an array element by element (the digest is not contiguous storage as a
    /// `Sequence`): a refresh takes three of these.
    public static func sha256(of text: String, prefix: Int = SHA256.byteCount) -> String {
        precondition((0...SHA256.byteCount).contains(prefix), "a SHA-256 digest has 32 bytes")
        var text = text
        var hasher = SHA256()
        text.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hasher.finalize().withUnsafeBytes { raw in
            encode(buffer: UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self).prefix(prefix)))
        }
    }
}
