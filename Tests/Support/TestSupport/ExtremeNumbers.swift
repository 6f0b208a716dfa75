/// Numbers a hostile or broken peer can send where a protocol expects seconds, a count or an
/// index (issue #28: no input may crash a process): JSON texts exactly as they go on the wire,
/// so that they reach the parser unchanged (no encoder writes `-0` or `9223372036854775808`).
public enum ExtremeNumbers {
    /// JSON numbers outside every sane range of a NumericDate, a lifetime or a counter: beyond
    /// `Int64` (2^63, 2^64, 30 digits), beyond year 9999 as a date (`1e19`, `1e30`), far below
    /// zero, and one no `Double` can hold (`1e400`).
    public static let outOfRange = [
        "1e30", "-1e300", "1e19", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "123456789012345678901234567890", "1e400", "-1",
    ]

    /// JSON strings a lenient parser would take for numbers.
    public static let numberLikeStrings = [
        #""NaN""#, #""Infinity""#, #""-inf""#, #""1e30""#, #""0x7fffffffffffffff""#, #""99999999999999999999""#,
    ]

    /// Odd numbers inside the range: negative zero and fractions.
    public static let oddButInRange = ["-0", "0.5", "1.5e9"]

    /// Every one of them.
    public static let all = outOfRange + numberLikeStrings + oddButInRange

    /// The same, as they arrive in a query parameter, a form field or a header: no quotes.
    public static let asText: [String] = all.map { $0.filter { $0 != "\"" } } + [
        "", " 1", "1 ", "+1", "1_000", "١٢٣", "nan", "inf", String(repeating: "9", count: 400),
    ]
}
