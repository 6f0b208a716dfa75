import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CLI's two output channels: results go to **stdout** (so `$(sesame token)` and `--json`
/// pipelines work), progress and errors to **stderr**.
enum Terminal {
    /// A result line on stdout.
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A progress line on stderr.
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// An error line on stderr.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Raw bytes on stdout (`sesame curl` bodies).
    static func write(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// `value` as pretty, key-sorted JSON on stdout.
    static func json<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        write(data + Data("\n".utf8))
    }

    /// Aligned `label: value` rows for human output.
    static func table(_ rows: [(String, String)]) {
        let width = rows.map(\.0.count).max() ?? 0
        for (label, value) in rows {
            out(label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
        }
    }

    /// `true` when stdin is an interactive terminal.
    static var stdinIsTTY: Bool { isatty(STDIN_FILENO) == 1 }

    /// `true` when stdout is an interactive terminal.
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
}
