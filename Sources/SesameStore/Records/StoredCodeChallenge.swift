import Foundation

/// How an optional PKCE `code_challenge` is kept in the `code_challenge` columns of
/// `authorization_codes` and `mfa_auth_sessions`, which are `NOT NULL`: "no challenge" (a
/// confidential client that relies on `nonce`, RFC 9700 §2.1.1) is the empty string. A real S256
/// challenge is never empty (43 base64url characters, RFC 7636 §4.2), so the two cannot meet,
/// and rows written before challenges became optional read back unchanged.
enum StoredCodeChallenge {
    /// The column value for `challenge`.
    static func column(_ challenge: String?) -> String { challenge ?? "" }

    /// The challenge a column value stands for.
    static func challenge(_ column: String) -> String? { column.isEmpty ? nil : column }
}
