import Foundation

/// Files named on the command line (`--jwks-file`, `--client-secret-file`, …): read whole, or as
/// one secret value, with one clear error each when they cannot be.
enum InputFile {
    /// The file's text (UTF-8).
    static func text(_ path: String, what: String, hint: String) throws(CLIError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw CLIError("cannot read \(what) \(path)", hint: hint)
        }
        return text
    }

    /// A value alone in a file (a secret, a token): trimmed, not empty.
    static func value(_ path: String, what: String, hint: String) throws(CLIError) -> String {
        let value = try text(path, what: what, hint: hint).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { throw CLIError("\(path) is empty, but should hold \(what)", hint: hint) }
        return value
    }
}
