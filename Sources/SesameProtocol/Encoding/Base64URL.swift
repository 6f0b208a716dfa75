import Foundation

/// Base64url encoding without padding (RFC 4648 §5, as used by RFC 7515 §2 and RFC 7636 §3).
public enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    public static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes unpadded (or padded) base64url; `nil` if the text is not base64url.
    public static func decode(_ text: String) -> Data? {
        guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
        var base64 = text
            .replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
