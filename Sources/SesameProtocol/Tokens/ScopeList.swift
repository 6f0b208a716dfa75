/// The `scope` parameter's wire form, RFC 6749 §3.3: "a list of space-delimited,
/// case-sensitive strings", whose order does not matter. One parser for the SDK and the server,
/// so the two cannot read the same string differently.
public enum ScopeList {
    /// The scopes of `text` in their first order, without empty entries or repeats (`nil` or
    /// blank: none).
    public static func parse(_ text: String?) -> [String] {
        var seen = Set<String>()
        return (text ?? "").split(separator: " ", omittingEmptySubsequences: true)
            .map(String.init)
            .filter { seen.insert($0).inserted }
    }

    /// The wire form of `scopes`: space-delimited, repeats dropped, order kept.
    public static func format(_ scopes: some Sequence<String>) -> String {
        var seen = Set<String>()
        return scopes.filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: " ")
    }
}
