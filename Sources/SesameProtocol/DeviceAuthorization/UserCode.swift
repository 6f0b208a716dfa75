/// An RFC 8628 §6.1 end-user code: 8 characters of the base-20 alphabet
/// ``alphabet`` (consonants without look-alikes, no vowels so no words), shown as `BDFH-JKLM`.
/// 20^8 ≈ 2^34.5 values, the entropy §5.1 gives as its example, with the server counting wrong
/// guesses.
///
/// Typing is forgiving (§6.1): case, spaces, dashes and other punctuation are ignored; anything
/// else, or a wrong length, is not a user code.
public struct UserCode: Sendable, Hashable, CustomStringConvertible {
    /// §6.1's example alphabet: `BCDFGHJKLMNPQRSTVWXZ`.
    public static let alphabet: [Character] = Array("BCDFGHJKLMNPQRSTVWXZ")
    /// Characters in a code.
    public static let length = 8

    /// The code's 8 letters, upper case, without the dash: what the server stores a digest of.
    public let normalized: String

    /// The code as typed, or `nil` when it is not 8 letters of ``alphabet`` once case and
    /// punctuation are ignored. Input longer than 64 characters is refused unread.
    public init?(typed text: String) {
        guard text.utf8.count <= 64 else { return nil }
        var letters = ""
        for character in text {
            if character.isLetter || character.isNumber {
                let upper = Character(character.uppercased())
                guard Self.alphabet.contains(upper) else { return nil }
                letters.append(upper)
            } else if character.isWhitespace || character.isPunctuation || character.isSymbol {
                continue
            } else {
                return nil
            }
        }
        guard letters.count == Self.length else { return nil }
        normalized = letters
    }

    /// A uniformly random code from the CSPRNG (``SecureRandom``): bytes of 240 or more are
    /// drawn again, so each of the 20 letters is equally likely.
    public static func random() -> UserCode {
        var letters = ""
        while letters.count < length {
            for byte in SecureRandom.bytes(16) where byte < 240 && letters.count < length {
                letters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return UserCode(unchecked: letters)
    }

    private init(unchecked letters: String) { normalized = letters }

    /// `BDFH-JKLM`: the form shown to the user (§6.1 suggests a separator).
    public var description: String {
        String(normalized.prefix(4)) + "-" + String(normalized.dropFirst(4))
    }
}
